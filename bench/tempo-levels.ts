/**
 * The level choice's weights: where they come from and how well they hold on sets they were not
 * fitted on.
 *
 *   npm run bench:tempo-levels -- <dir> [<dir>...] [--l2 0.001] [--flat 0.15] [--cache <dir>]
 *     [--group <name>=<dir>,<dir>] [--by-genre <set>,...] [--weight <set>=<w>,...]
 *     [--without <feature>,...] [--levels <file>] [--rendered <set>,...] [--write [<file>]]
 *
 * Each `<dir>` holds audio and a truth.json with `bpm`. Every clip is decoded by the engine's
 * decode path and its candidate levels, with their evidence, come from the engine's own rhythm
 * stage, so the features are the ones the service scores. Reported per set: whether the true
 * level is among the candidates, Acc1 with the engine's LEVEL_WEIGHTS, with weights refitted on
 * all sets, and with weights fitted on all the other sets (leave one set out: the figure to
 * trust). `--group` puts several folders in one held-out group (versions of the same songs at
 * other tempi must be left out together with their originals); `--by-genre` holds a set out genre
 * by genre instead (its truth's `genre`: each genre judged by weights fitted on every other set
 * and on the set's other genres). Prints the refitted weights.
 *
 * The fit is a softmax regression over each clip's candidates (the right ones share the
 * target), by Adam gradient descent with an L2 penalty, each set weighted equally so
 * that no one kind of music dominates (`--weight gtzan-fit=2` counts a set twice). Within a
 * set, each clip is weighted by the inverse of how many clips of all the sets have a tempo
 * near its own (a Gaussian kernel `--flat` octaves wide on log2 BPM; 0 turns it off): the
 * sets at hand crowd some tempi (a set of fast band songs, a set drawn evenly from 55-210 BPM),
 * and unweighted the fit learns their tempo distribution as if it were evidence. Flattened,
 * the fitted terms say what the evidence tells about levels. The tempo preference's width stays
 * the fixed one of rhythm.level.ts; its linear term `x`, which sets the preference's centre, is
 * fitted with the evidence.
 *
 * `--without` keeps the named features' weights at 0 (what a feature is worth, left out).
 * `--levels` keeps every clip's candidates and evidence in a file, read instead of the audio
 * when it exists (delete it after changing the engine).
 *
 * The tempo confidence: a ridge logistic regression (λ 0.1) of whether the choice is right
 * (Acc1) on rhythm.level.ts's TEMPO_CALIBRATION_INPUTS, fitted on the left-out choices of every
 * set but those named `--rendered` (rendered songs are read right far more often than
 * recordings and would make it overconfident), each clip chosen by the level weights fitted
 * without its group. Its reliability
 * table (calibrated confidence band → share right) is itself left out by group: each group's
 * clips are given the confidence of a calibration fitted without that group. `--write` writes
 * the calibration fitted on every such set to src/engine/tempo.calibration.json (or the file
 * given).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { analyseRhythm } from '../src/engine/rhythm';
import {
  LEVEL_FEATURES,
  LEVEL_WEIGHTS,
  type Level,
  TEMPO_CALIBRATION_INPUTS,
  chooseLevel,
  levelScore,
  rankLevels,
  tempoCalibrationInputs,
} from '../src/engine/rhythm.level';
import { onsetEnvelopes } from '../src/engine/rhythm.onsets';
import { Stft } from '../src/engine/signal.stft';
import { analyseTonal } from '../src/engine/tonal';
import { chromaOf } from '../src/engine/tonal.chroma';
import { fitLogistic, leftOutByGroup } from '../measure/fit/logistic';
import { printReliability, printReliabilityBySet } from './lib/reliability';
import { optionalFileFlag, setWeightsOf } from './lib/tools';
import { analysisWindowOf } from './lib/window-cache';
import { readTruth, tempoRelation } from '../measure/corpora/truth';

interface Clip {
  set: string;
  group: string;
  file: string;
  bpm: number;
  genre?: string;
  levels: Level[];
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

const right = (level: Level, bpm: number) => tempoRelation(level.bpm, bpm) === 'right';

interface FitOptions {
  l2: number;
  /** Width (octaves) of the kernel that flattens the clips' tempo distribution; 0: off. */
  flat: number;
  /** Indices of features whose weights stay 0. */
  without: ReadonlySet<number>;
  /** Sets weighed other than 1 (--weight). */
  setWeights: ReadonlyMap<string, number>;
}

/** Each clip's weight in the fit: every set weighs alike, and within a set, clips at crowded tempi less. */
function clipWeights(clips: Clip[], flat: number, setWeights: ReadonlyMap<string, number>): Map<Clip, number> {
  const perSet = new Map<string, Clip[]>();
  for (const c of clips) perSet.set(c.set, (perSet.get(c.set) ?? []).concat(c));
  const rarity = (c: Clip): number =>
    flat > 0 ? 1 / clips.reduce((s, o) => s + Math.exp(-(Math.log2(o.bpm / c.bpm) ** 2) / (2 * flat * flat)), 0) : 1;
  const weights = new Map<Clip, number>();
  for (const [set, members] of perSet) {
    const r = members.map(rarity);
    const sum = r.reduce((a, b) => a + b, 0);
    members.forEach((c, i) => weights.set(c, ((setWeights.get(set) ?? 1) * r[i]!) / sum / perSet.size));
  }
  return weights;
}

function fit(clips: Clip[], { l2, flat, without, setWeights }: FitOptions, iterations = 3000): number[] {
  const dims = LEVEL_FEATURES.length;
  const weights = new Array<number>(dims).fill(0);
  const usable = clips.filter((c) => c.levels.some((l) => right(l, c.bpm)));
  const clipWeight = clipWeights(usable, flat, setWeights);
  // Adam: the features differ in scale, and plain gradient steps crawl along the flat ones.
  const m = new Array<number>(dims).fill(0);
  const v = new Array<number>(dims).fill(0);
  for (let it = 1; it <= iterations; it++) {
    const grad = weights.map((w) => 2 * l2 * w);
    for (const clip of usable) {
      const weight = clipWeight.get(clip)!;
      const scores = clip.levels.map((l) => levelScore(l, weights));
      const max = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - max));
      const z = e.reduce((a, b) => a + b, 0);
      const target = clip.levels.map((l) => (right(l, clip.bpm) ? 1 : 0));
      const zRight = e.reduce((s, x, j) => s + x * target[j]!, 0);
      clip.levels.forEach((l, j) => {
        const d = e[j]! / z - (e[j]! * target[j]!) / zRight;
        l.features.forEach((x, i) => (grad[i]! += weight * d * x));
      });
    }
    for (let i = 0; i < dims; i++) {
      if (without.has(i)) continue;
      m[i] = 0.9 * m[i]! + 0.1 * grad[i]!;
      v[i] = 0.999 * v[i]! + 0.001 * grad[i]! ** 2;
      const mh = m[i]! / (1 - 0.9 ** it);
      const vh = v[i]! / (1 - 0.999 ** it);
      weights[i]! -= (0.05 * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  return weights;
}

function score(clips: Clip[], weightsOf: (clip: Clip) => readonly number[]): { acc1: number; misses: string[] } {
  let acc1 = 0;
  const misses: string[] = [];
  for (const clip of clips) {
    const pick = chooseLevel(clip.levels, weightsOf(clip))?.level;
    if (pick && right(pick, clip.bpm)) acc1++;
    else misses.push(`${clip.file} ${clip.bpm}->${pick?.bpm.toFixed(1) ?? '-'}`);
  }
  return { acc1, misses };
}

/** A clip's level choice: its calibration inputs and whether it is right. */
interface Choice {
  clip: Clip;
  inputs: Record<string, number>;
  right: boolean;
}

function choiceOf(clip: Clip, weights: readonly number[]): Choice {
  const ranked = rankLevels(clip.levels, weights);
  return { clip, inputs: tempoCalibrationInputs(ranked), right: ranked[0] !== undefined && right(ranked[0].level, clip.bpm) };
}

const CALIBRATION_L2 = 0.1;

/**
 * The tempo confidence, fitted on the left-out choices (each group's clips chosen by the level
 * weights fitted without it, `weightsOf`) and its reliability, left out twice: each group's
 * clips calibrated by a fit on the other groups' choices; then, with `write`, the calibration
 * fitted on them all written there.
 */
function calibration(clips: Clip[], weightsOf: (clip: Clip) => readonly number[], rendered: ReadonlySet<string>, write: string | undefined): void {
  const choices = clips.filter((c) => !rendered.has(c.set)).map((c) => choiceOf(c, weightsOf(c)));
  const groups = [...new Set(choices.map((c) => c.clip.group))];
  if (groups.length < 2) {
    console.log('\n(tempo confidence: needs the choices of at least two groups not named --rendered)');
    return;
  }
  const confidence = leftOutByGroup(choices, (c) => c.clip.group, (c) => c.inputs, (c) => c.right, TEMPO_CALIBRATION_INPUTS, CALIBRATION_L2);
  const shown = [...new Set(choices.map((c) => c.clip.set))];
  printReliability(`tempo confidence, left out (levels and calibration fitted without each group; ${choices.length} clips not rendered)`, choices, (c) => confidence.get(c)!, (c) => c.right);
  printReliabilityBySet(choices, (c) => c.clip.set, (c) => confidence.get(c)!, (c) => c.right);
  if (!write) return;
  const fit = fitLogistic(choices.map((c) => c.inputs), choices.map((c) => c.right), TEMPO_CALIBRATION_INPUTS, CALIBRATION_L2);
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  const counts = shown.map((s) => `${s} ${choices.filter((c) => c.clip.set === s).length}`);
  const file = {
    fittedOn: counts.join(', '),
    method: `ridge logistic regression (λ ${CALIBRATION_L2}) of the level choice being right (Acc1) on the left-out choices (level weights fitted without each clip's group) of the sets not rendered; npm run bench:tempo-levels -- --write`,
    bias: round(fit.bias),
    weights: Object.fromEntries(TEMPO_CALIBRATION_INPUTS.map((k) => [k, round(fit.weights[k]!)])),
  };
  writeFileSync(write, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`\nwrote ${write}`);
}

/** Every clip's candidate levels with their evidence, by the engine's own stages. */
async function measure(dirs: string[], groupOf: Map<string, string>, cache: string | undefined): Promise<Clip[]> {
  const stft = new Stft();
  const clips: Clip[] = [];
  for (const dir of dirs) {
    for (const row of readTruth(dir)) {
      if (row.bpm === undefined) continue;
      const spec = stft.spectrogram(stft.halfRate(await analysisWindowOf(dir, row.file, cache)));
      const chroma = chromaOf(spec);
      const { levels } = analyseRhythm(onsetEnvelopes(spec), chroma, analyseTonal(chroma).tonality);
      clips.push({ set: basename(dir), group: groupOf.get(resolve(dir)) ?? basename(dir), file: row.file, bpm: row.bpm, genre: row.genre, levels });
      process.stderr.write('.');
    }
    process.stderr.write(` ${basename(dir)}\n`);
  }
  return clips;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const valued = new Set(['--l2', '--flat', '--cache', '--group', '--by-genre', '--weight', '--without', '--levels', '--rendered']);
  const { file: write, at: writeAt } = optionalFileFlag(args, '--write', resolve(__dirname, '../src/engine/tempo.calibration.json'));
  const dirs = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? '') && i !== writeAt);
  if (dirs.length === 0) {
    console.error('usage: npm run bench:tempo-levels -- <dir> [<dir>...] [--l2 0.001] [--flat 0.15] [--cache <dir>] [--group <name>=<dir>,<dir>] [--by-genre <set>,...] [--weight <set>=<w>,...] [--without <feature>,...] [--levels <file>] [--rendered <set>,...] [--write [<file>]]');
    process.exit(2);
  }
  const without = new Set(
    (option(args, 'without') ?? '').split(',').filter(Boolean).map((name) => {
      const i = (LEVEL_FEATURES as readonly string[]).indexOf(name);
      if (i < 0) throw new Error(`--without: no feature ${name} (the features: ${LEVEL_FEATURES.join(', ')})`);
      return i;
    }),
  );
  let setWeights: Map<string, number>;
  try {
    setWeights = setWeightsOf((option(args, 'weight') ?? '').split(',').filter(Boolean));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const byGenre = new Set((option(args, 'by-genre') ?? '').split(',').filter(Boolean));
  const options: FitOptions = { l2: Number(option(args, 'l2') ?? 0.001), flat: Number(option(args, 'flat') ?? 0.15), without, setWeights };
  const cache = option(args, 'cache');
  const levelsFile = option(args, 'levels');
  if (cache) mkdirSync(cache, { recursive: true });
  const groupOf = new Map<string, string>();
  args.forEach((a, i) => {
    if (a !== '--group') return;
    const [name, list] = (args[i + 1] ?? '').split('=');
    for (const d of (list ?? '').split(',')) if (d) groupOf.set(resolve(d), name!);
  });
  const measured = levelsFile && existsSync(levelsFile) ? (JSON.parse(readFileSync(levelsFile, 'utf8')) as Clip[]) : await measure(dirs, groupOf, cache);
  if (levelsFile && !existsSync(levelsFile)) writeFileSync(levelsFile, JSON.stringify(measured.map((c) => ({ ...c, levels: c.levels.map((l) => ({ ...l, beats: [] })) }))));
  const clips = measured.map((c) => (byGenre.has(c.set) ? { ...c, group: `${c.set}/${c.genre ?? '-'}` } : c));
  const groups = [...new Set(clips.map((c) => c.group))];
  const heldOut = new Map<string, number[]>();
  if (groups.length > 1) for (const g of groups) heldOut.set(g, fit(clips.filter((c) => c.group !== g), options));
  const refit = fit(clips, options);
  const total = { n: 0, present: 0, engine: 0, refit: 0, held: 0 };
  console.log('set          clips  true level present  Acc1 engine weights  Acc1 refit  Acc1 held out');
  for (const set of [...new Set(clips.map((c) => c.set))]) {
    const mine = clips.filter((c) => c.set === set);
    const present = mine.filter((c) => c.levels.some((l) => right(l, c.bpm))).length;
    const engine = score(mine, () => LEVEL_WEIGHTS);
    const all = score(mine, () => refit);
    const held = heldOut.size > 0 ? score(mine, (c) => heldOut.get(c.group)!) : undefined;
    total.n += mine.length;
    total.present += present;
    total.engine += engine.acc1;
    total.refit += all.acc1;
    total.held += held?.acc1 ?? 0;
    console.log(
      `${set.padEnd(12)} ${String(mine.length).padStart(5)}  ${String(present).padStart(18)}  ${String(engine.acc1).padStart(19)}  ${String(all.acc1).padStart(10)}  ${String(held?.acc1 ?? '-').padStart(13)}`,
    );
    if (engine.misses.length) console.log(`             engine misses: ${engine.misses.join(', ')}`);
    if (held?.misses.length) console.log(`             held-out misses: ${held.misses.join(', ')}`);
    if (byGenre.has(set) && heldOut.size > 0) {
      const genres = [...new Set(mine.map((c) => c.genre ?? '-'))];
      const each = genres.map((g) => {
        const members = mine.filter((c) => (c.genre ?? '-') === g);
        return `${g} ${score(members, (c) => heldOut.get(c.group)!).acc1}/${members.length}`;
      });
      console.log(`             held out by genre: ${each.join(', ')}`);
    }
  }
  const pct = (k: number) => `${k}/${total.n} (${((100 * k) / total.n).toFixed(1)} %)`;
  console.log(`all: true level present ${pct(total.present)}; Acc1 engine ${pct(total.engine)}, refit ${pct(total.refit)}, held out ${heldOut.size > 0 ? pct(total.held) : '-'}`);
  console.log(`features: ${LEVEL_FEATURES.join(', ')}`);
  console.log(`refitted weights: [${refit.map((w) => w.toFixed(2)).join(', ')}]`);
  const rendered = new Set((option(args, 'rendered') ?? '').split(',').filter(Boolean));
  calibration(clips, (c) => heldOut.get(c.group) ?? LEVEL_WEIGHTS, rendered, write);
}

void main();
