/*
 * How an estimate is scored against a known answer (MIREX conventions), shared by the accuracy
 * benchmarks and their unit tests.
 */

/** Acc1: within `tolerance` (4 %) of the true tempo. */
export function tempoWithin(estimate: number, truth: number, tolerance = 0.04): boolean {
  return Math.abs(estimate - truth) <= tolerance * truth;
}

/** Acc2: right up to a factor of 2, 3, 1/2 or 1/3. */
export function tempoWithinOctave(estimate: number, truth: number): boolean {
  return [1, 2, 3, 1 / 2, 1 / 3].some((f) => tempoWithin(estimate, truth * f));
}

/** The metrical relation of a tempo estimate to the truth, as the accuracy tables count it. */
export type TempoRelation = 'right' | 'double' | 'half' | 'triple' | 'third' | '3:2' | '2:3' | 'other';

export function tempoRelation(estimate: number, truth: number): TempoRelation {
  const factors: ReadonlyArray<[TempoRelation, number]> = [
    ['right', 1],
    ['double', 2],
    ['half', 1 / 2],
    ['triple', 3],
    ['third', 1 / 3],
    ['3:2', 3 / 2],
    ['2:3', 2 / 3],
  ];
  for (const [name, f] of factors) if (tempoWithin(estimate, truth * f)) return name;
  return 'other';
}

/** MIREX key score: same key 1, a fifth away in the same mode 0.5, relative 0.3, parallel 0.2, else 0. */
export function mirexKeyScore(key: number, mode: 0 | 1, trueKey: number, trueMode: 0 | 1): number {
  if (key === trueKey && mode === trueMode) return 1;
  if (mode === trueMode && (key === (trueKey + 7) % 12 || key === (trueKey + 5) % 12)) return 0.5;
  if (mode !== trueMode) {
    const relative = trueMode === 1 ? (trueKey + 9) % 12 : (trueKey + 3) % 12;
    if (key === relative) return 0.3;
    if (key === trueKey) return 0.2;
  }
  return 0;
}
