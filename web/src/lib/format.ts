/** "A minor" from a pitch class and mode (1 = major, 0 = minor), as keyString spells it; `pitchClasses` as the API lists them. */
export function keyName(pitchClasses: readonly string[], key: number, mode: number): string {
  return `${pitchClasses[key] ?? '?'} ${mode === 1 ? 'major' : 'minor'}`;
}

/** m:ss of a number of seconds (rounded down to the second). */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** A score in [0, 1] with two decimals. */
export function score(value: number): string {
  return value.toFixed(2);
}

/** A share in [0, 1] as a whole percentage. */
export function percent(value: number): string {
  return `${Math.round(value * 100)} %`;
}

/** A date-time of the API (ISO 8601) for people, in their locale; "—" when absent. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/**
 * Round, evenly spaced tick values from 0 to `max` (about `count` of them): steps of 1, 2 or 5
 * times a power of ten, so axis labels read 0, 5, 10 … rather than 0, 4.8, 9.6; no step below
 * `minStep` (1 for counts: no tick at half a request).
 */
export function ticks(max: number, count: number, minStep = 0): number[] {
  if (!(max > 0) || count < 1) return [0];
  const rough = Math.max(max / count, minStep);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const out: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}
