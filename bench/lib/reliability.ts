/**
 * Reliability tables: how often an estimate is right in each band of its confidence. A
 * confidence that is a probability is right about as often as it says, band by band; the
 * benchmarks that fit or judge a confidence (bench:accuracy, bench:key-profiles,
 * bench:tempo-levels) print the same bands so their tables compare.
 */

/** The confidences' bands, low edges: [0, 0.3), [0.3, 0.5), [0.5, 0.7), [0.7, 0.85), [0.85, 1]. */
export const CONFIDENCE_BANDS = [0, 0.3, 0.5, 0.7, 0.85] as const;

/** Where a confidence counts as sure (the share of clips at or above it, and how often they are right). */
export const SURE = 0.7;

const pct = (n: number, of: number): string => (of > 0 ? `${((100 * n) / of).toFixed(0)} %` : '-');

/**
 * Prints one table of a confidence's bands: how many rows each band holds, how many of them are
 * right, and (with `score`) their mean score; then the share of rows at SURE or above and how
 * often those are right.
 */
export function printReliability<T>(
  title: string,
  rows: readonly T[],
  confidence: (r: T) => number,
  right: (r: T) => boolean,
  score?: { name: string; of: (r: T) => number },
): void {
  console.log(`\n${title.padEnd(16)}  clips  ${'right'.padStart(13)}${score ? `  ${score.name}` : ''}`);
  CONFIDENCE_BANDS.forEach((low, i) => {
    const high = CONFIDENCE_BANDS[i + 1] ?? Infinity;
    const band = rows.filter((r) => confidence(r) >= low && confidence(r) < high);
    const n = band.filter(right).length;
    const label = high === Infinity ? `${low.toFixed(2)}–1` : `${low.toFixed(2)}–${high.toFixed(2)}`;
    const mean = score ? `  ${band.length > 0 ? (band.reduce((s, r) => s + score.of(r), 0) / band.length).toFixed(3) : '-'}` : '';
    console.log(`${label.padEnd(16)} ${String(band.length).padStart(6)}  ${`${n} (${pct(n, band.length)})`.padStart(13)}${mean}`);
  });
  const sure = rows.filter((r) => confidence(r) >= SURE);
  const n = sure.filter(right).length;
  console.log(`at ≥ ${SURE}: ${sure.length} of ${rows.length} clips (${pct(sure.length, rows.length)}), ${pct(n, sure.length)} right`);
}

/**
 * Prints, set by set, how many rows are right, and how many are at SURE and at the top band's
 * edge (0.85) and how many of those are right: a confidence pooled over sets can be honest on
 * the whole and over- or under-confident on one kind of music.
 */
export function printReliabilityBySet<T>(rows: readonly T[], setOf: (r: T) => string, confidence: (r: T) => number, right: (r: T) => boolean): void {
  const top = CONFIDENCE_BANDS[CONFIDENCE_BANDS.length - 1]!;
  for (const set of new Set(rows.map(setOf))) {
    const mine = rows.filter((r) => setOf(r) === set);
    const at = (edge: number) => {
      const sure = mine.filter((r) => confidence(r) >= edge);
      return `at ≥ ${edge} ${sure.length} clips, ${sure.filter(right).length} right`;
    };
    console.log(`  ${set}: ${mine.filter(right).length}/${mine.length} right; ${at(SURE)}; ${at(top)}`);
  }
}
