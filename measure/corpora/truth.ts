/*
 * Ground truth of a folder of audio with known answers: `<dir>/truth.json`, an array of rows
 * `{file, bpm?, tonic?, modeBinary?, timeSignature?, drums?, ...}`. A field that is missing or
 * null is unknown for that file, and the file is left out of that metric.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export { mirexKeyScore, tempoRelation, tempoWithin, tempoWithinOctave, type TempoRelation } from './accuracy-scores';

export interface TruthRow {
  file: string;
  bpm?: number;
  tonic?: number;
  modeBinary?: 0 | 1;
  timeSignature?: number;
  drums?: boolean;
  /** The clip's kind of music (`genre`, else `kind`), for the per-genre table. */
  genre?: string;
}

export function readTruth(dir: string): TruthRow[] {
  const rows = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as Array<Record<string, unknown>>;
  return rows.map((r) => {
    const row: TruthRow = { file: String(r.file) };
    if (typeof r.bpm === 'number') row.bpm = r.bpm;
    if (typeof r.tonic === 'number') row.tonic = r.tonic;
    if (r.modeBinary === 0 || r.modeBinary === 1) row.modeBinary = r.modeBinary;
    if (typeof r.timeSignature === 'number') row.timeSignature = r.timeSignature;
    if (typeof r.drums === 'boolean') row.drums = r.drums;
    const genre = typeof r.genre === 'string' ? r.genre : typeof r.kind === 'string' ? r.kind : undefined;
    if (genre) row.genre = genre;
    return row;
  });
}
