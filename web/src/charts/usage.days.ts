/** One key's counts on one day (YYYY-MM-DD, UTC). */
export interface DayCount {
  day: string;
  requests: number;
  analyses: number;
}

/** The last `count` days up to `today` (UTC, YYYY-MM-DD), oldest first, with the counts of `rows` and zeros elsewhere. */
export function fillDays(rows: readonly DayCount[], count: number, today: Date): DayCount[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: DayCount[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i)).toISOString().slice(0, 10);
    const row = byDay.get(day);
    out.push({ day, requests: row?.requests ?? 0, analyses: row?.analyses ?? 0 });
  }
  return out;
}
