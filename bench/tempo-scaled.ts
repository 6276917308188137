/**
 * Versions of a set's clips at other tempi with the truth scaled alike, for studying a tempo range
 * the set does not reach (fast band music from band songs at moderate tempi, say), in a folder
 * that `npm run bench:accuracy` and `npm run bench:tempo-levels` read.
 *
 *   npm run bench:tempo-scaled -- <dir> <out dir> --factors "<bpm>=<r>,<r>,...;<bpm>=..."
 *
 * `<dir>` holds audio and a truth.json with `bpm`. Each clip whose truth is one of the listed
 * tempi takes a factor from that tempo's list: clip n (the number in its file name) the n-th,
 * counting round the list, so the clips of one song spread over its factors. `sox <clip> <out>
 * tempo R` changes the tempo by R without changing the pitch (WSOLA), and the truth becomes
 * bpm × R. Clips of other tempi are left out. Needs `sox` with `libsox-fmt-all`; the service
 * never does.
 *
 * These are the same songs at other tempi, not new music: a level fit must leave them out
 * together with their originals (`bench:tempo-levels --group`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { readTruth } from '../measure/corpora/truth';
import { hasCommand, soxFormatsLacking } from './lib/tools';

interface Row {
  file: string;
  bpm: number;
  sourceBpm: number;
  factor: number;
}

/** "150=1.15,1.2;95=1.8,2" → Map(150 → [1.15, 1.2], 95 → [1.8, 2]); throws on anything else. */
function parseFactors(text: string): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  for (const part of text.split(';').map((p) => p.trim()).filter(Boolean)) {
    const [bpm, list] = part.split('=');
    const factors = (list ?? '').split(',').map(Number);
    if (!(Number(bpm) > 0) || factors.length === 0 || factors.some((f) => !(f > 0))) throw new Error(`not a tempo and its factors: "${part}"`);
    lists.set(Number(bpm), factors);
  }
  if (lists.size === 0) throw new Error('no factors given');
  return lists;
}

/** The last number in a clip's file name, its extension aside (rec07.mp3 → 7), 0 without one. */
function clipNumber(file: string): number {
  return Number(/(\d+)\D*$/.exec(file.replace(/\.[^.]*$/, ''))?.[1] ?? 0);
}

function main(): void {
  const { values, positionals } = parseArgs({ options: { factors: { type: 'string' } }, allowPositionals: true });
  const [dir, out] = positionals;
  const formats = dir && existsSync(join(dir, 'truth.json')) ? soxFormatsLacking([...new Set(readTruth(dir).map((r) => extname(r.file).slice(1)))]) : '';
  if (!dir || !out || !values.factors || !hasCommand('sox') || formats) {
    console.error(`usage: npm run bench:tempo-scaled -- <dir> <out dir> --factors "<bpm>=<r>,<r>,...;<bpm>=..." (needs sox${formats})`);
    process.exit(2);
  }
  const lists = parseFactors(values.factors);
  mkdirSync(out, { recursive: true });
  const rows: Row[] = [];
  for (const row of readTruth(dir)) {
    if (row.bpm === undefined) continue;
    const list = lists.get(row.bpm);
    if (!list) continue;
    const factor = list[clipNumber(row.file) % list.length]!;
    execFileSync('sox', [join(dir, row.file), join(out, row.file), 'tempo', String(factor)]);
    rows.push({ file: row.file, bpm: Math.round(row.bpm * factor * 100) / 100, sourceBpm: row.bpm, factor });
    console.log(`${row.file} ${row.bpm} x ${factor} = ${rows.at(-1)!.bpm} BPM`);
  }
  writeFileSync(join(out, 'truth.json'), `${JSON.stringify(rows, null, 1)}\n`);
  console.log(`wrote ${rows.length} clips and truth.json to ${out}`);
}

main();
