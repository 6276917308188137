/*
 * Ground truth of a rendered set (the format of ../shared/corpus/synth/truth.json) and the
 * tempo scores the accuracy benchmarks share.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TruthRow {
  file: string;
  bpm?: number;
  tonic?: number;
  modeBinary?: 0 | 1;
  timeSignature?: number;
  drums?: boolean;
}

/** `<dir>/truth.json`: an array of rows, one per audio file of the folder. */
export function readTruth(dir: string): TruthRow[] {
  return JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as TruthRow[];
}

/** Acc1: within 4 % of the true tempo. */
export function tempoWithin(estimate: number, truth: number, tolerance = 0.04): boolean {
  return Math.abs(estimate - truth) <= tolerance * truth;
}

/** Acc2: right up to a factor of 2, 3, 1/2 or 1/3. */
export function tempoWithinOctave(estimate: number, truth: number): boolean {
  return [1, 2, 3, 1 / 2, 1 / 3].some((f) => tempoWithin(estimate, truth * f));
}
