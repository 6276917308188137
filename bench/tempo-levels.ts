/**
 * How the tempo's level choice does on rendered sets, and where its weights come from.
 *
 *   npm run bench:tempo-levels -- <dir> [<dir>...] [--window 30] [--l2 0.001] [--iterations 4000] [--cache <dir>]
 *
 * Each `<dir>` holds audio and a truth.json (the format of ../shared/corpus/synth). Every clip is
 * decoded through the engine's own `decodeWindow` and its candidate levels come from the engine's
 * own `tempoEvidence`, so the candidates and features are exactly the ones the service scores.
 * `--cache <dir>` keeps the decoded windows there (raw float32, one file per clip and window
 * length), so that runs comparing changes to the level choice skip the decoding.
 * Reported per set: how often the true level is among the candidates, tempo Acc1 with the
 * engine's `LEVEL_WEIGHTS`, with weights refitted on all the sets given, and with weights fitted
 * on all the other sets (leave one set out: the figure to trust). Prints the refitted weights.
 *
 * The fit is a softmax regression over each clip's candidates (the right ones share the target),
 * by full-batch gradient descent with a small L2 penalty; clips without a right candidate are left
 * out of the fit but count as misses.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { decodeAnalysisWindow } from '../src/engine/decode';
import { LEVEL_WEIGHTS, type TempoCandidate, levelScores, tempoEvidence } from '../src/engine/rhythm';
import { readTruth, tempoWithin, tempoWithinOctave } from './lib/truth';

interface Clip {
  set: string;
  file: string;
  bpm: number;
  candidates: TempoCandidate[];
}

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** The candidate with the highest score under `weights`. */
function chosen(clip: Clip, weights: readonly number[]): TempoCandidate | undefined {
  const scores = levelScores(clip.candidates, weights);
  let best = -1;
  for (let i = 0; i < scores.length; i++) if (best < 0 || scores[i]! > scores[best]!) best = i;
  return clip.candidates[best];
}

function fit(clips: Clip[], l2: number, iterations: number): number[] {
  const dims = Math.max(...clips.flatMap((c) => c.candidates.map((k) => k.features.length)));
  const weights = new Array<number>(dims).fill(0);
  const usable = clips.filter((c) => c.candidates.some((k) => tempoWithin(k.bpm, c.bpm)));
  for (let it = 0; it < iterations; it++) {
    const rate = it < iterations * 0.53 ? 0.5 : 0.2;
    const grad = new Array<number>(dims).fill(0);
    for (const clip of usable) {
      const scores = levelScores(clip.candidates, weights);
      const max = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - max));
      const z = e.reduce((a, b) => a + b, 0);
      const right = clip.candidates.map((k) => (tempoWithin(k.bpm, clip.bpm) ? 1 : 0));
      const nRight = right.reduce<number>((a, b) => a + b, 0);
      clip.candidates.forEach((k, j) => {
        const d = e[j]! / z - right[j]! / nRight;
        k.features.forEach((v, i) => (grad[i]! += d * v));
      });
    }
    for (let i = 0; i < dims; i++) weights[i]! -= rate * (grad[i]! / usable.length + l2 * weights[i]!);
  }
  return weights;
}

function score(clips: Clip[], weights: readonly number[]): { acc1: number; acc2: number; misses: string[] } {
  let acc1 = 0;
  let acc2 = 0;
  const misses: string[] = [];
  for (const clip of clips) {
    const pick = chosen(clip, weights);
    const bpm = pick?.bpm ?? 0;
    if (tempoWithinOctave(bpm, clip.bpm)) acc2++;
    if (tempoWithin(bpm, clip.bpm)) acc1++;
    else misses.push(`${clip.file} ${clip.bpm}->${bpm.toFixed(1)}`);
  }
  return { acc1, acc2, misses };
}

/** The clip's analysis window, decoded by the engine or read back from `cache`. */
async function windowOf(dir: string, file: string, windowSeconds: number, cache: string | undefined): Promise<Float32Array> {
  const cached = cache ? join(cache, `${basename(dir)}--${file}--${windowSeconds}.f32`) : undefined;
  if (cached && existsSync(cached)) {
    const raw = readFileSync(cached);
    return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  }
  const { samples } = await decodeAnalysisWindow(readFileSync(join(dir, file)), windowSeconds);
  if (cached) writeFileSync(cached, samples);
  return samples;
}

async function load(dir: string, windowSeconds: number, cache: string | undefined): Promise<Clip[]> {
  const clips: Clip[] = [];
  for (const row of readTruth(dir)) {
    if (row.bpm === undefined) continue;
    const samples = await windowOf(dir, row.file, windowSeconds, cache);
    clips.push({ set: basename(dir), file: row.file, bpm: row.bpm, candidates: tempoEvidence(samples).candidates });
    process.stderr.write('.');
  }
  process.stderr.write(` ${basename(dir)}\n`);
  return clips;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const valued = new Set(['--window', '--l2', '--iterations', '--cache']);
  const dirs = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? ''));
  if (dirs.length === 0) {
    console.error('usage: npm run bench:tempo-levels -- <dir> [<dir>...] [--window 30] [--l2 0.001] [--iterations 4000] [--cache <dir>]');
    process.exit(2);
  }
  const l2 = option(args, 'l2', 0.001);
  const iterations = option(args, 'iterations', 4000);
  const clips: Clip[] = [];
  const ci = args.indexOf('--cache');
  const cache = ci >= 0 ? args[ci + 1] : undefined;
  if (cache) mkdirSync(cache, { recursive: true });
  for (const dir of dirs) clips.push(...(await load(dir, option(args, 'window', 30), cache)));
  const sets = [...new Set(clips.map((c) => c.set))];
  const refit = fit(clips, l2, iterations);
  const pct = (k: number, n: number) => `${k}/${n} (${((100 * k) / n).toFixed(1)} %)`;
  const total = { present: 0, engine: 0, refit: 0, heldOut: 0, heldOut2: 0 };
  console.log('set        clips  true level present  Acc1 engine weights  Acc1 refit  Acc1 set held out  Acc2 held out');
  for (const set of sets) {
    const mine = clips.filter((c) => c.set === set);
    const present = mine.filter((c) => c.candidates.some((k) => tempoWithin(k.bpm, c.bpm))).length;
    const engine = score(mine, LEVEL_WEIGHTS);
    const all = score(mine, refit);
    // With one set there is nothing to fit on without it: no held-out figure.
    const held = sets.length > 1 ? score(mine, fit(clips.filter((c) => c.set !== set), l2, iterations)) : undefined;
    total.present += present;
    total.engine += engine.acc1;
    total.refit += all.acc1;
    total.heldOut += held?.acc1 ?? 0;
    total.heldOut2 += held?.acc2 ?? 0;
    console.log(
      `${set.padEnd(10)} ${String(mine.length).padStart(5)}  ${String(present).padStart(18)}  ${String(engine.acc1).padStart(19)}  ${String(all.acc1).padStart(10)}  ${String(held?.acc1 ?? '-').padStart(17)}  ${String(held?.acc2 ?? '-').padStart(13)}`,
    );
    if (held?.misses.length) console.log(`           held-out misses: ${held.misses.join(', ')}`);
  }
  const n = clips.length;
  const heldOut = sets.length > 1 ? `held out ${pct(total.heldOut, n)}; Acc2 held out ${pct(total.heldOut2, n)}` : 'held out: needs two sets or more';
  console.log(
    `all        ${n}: true level present ${pct(total.present, n)}; Acc1 engine ${pct(total.engine, n)}, refit ${pct(total.refit, n)}, ${heldOut}`,
  );
  console.log(`refitted weights: [${refit.map((w) => w.toFixed(2)).join(', ')}]`);
}

void main();
