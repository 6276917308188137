/**
 * The key model's weights (src/engine/key.weights.json): where they come from and how well they
 * hold on sets they were not fitted on.
 *
 *   npm run bench:key-profiles -- <dir> [<dir>...] [--cache <dir>] [--features <file>]
 *     [--by-genre <set>,...] [--weight <set>=<w>,...] [--rendered <set>,...] [--l2 0.01]
 *     [--judge <set>=<fit set>,...] [--plain] [--write [<file>]]
 *
 * Each `<dir>` holds audio and a truth.json with `tonic` and `modeBinary`. Every clip is decoded by
 * the engine's decode path and its sustained chroma, bass line and plain chroma come from the
 * engine's own chroma stage, so the features are the ones the service scores (tonal.key.ts: each
 * key's correlations with three profiles, the bass line's times its concentration, minor, and the
 * chroma's twelve degrees from the key's tonic).
 *
 * The fit: softmax regression over the 24 keys (Adam, an L2 penalty `--l2` on the mean loss),
 * every group weighing alike. A group is a set, or with `--by-genre` each genre of a set (the file
 * name's part before its first dot, as GTZAN names its clips) — so that leaving one out keeps the
 * set's other kinds of music in the fit. `--weight gtzan=3` makes a set count as much as three
 * (spread over its genres). Reported per set: the MIREX score and exact share with the shipped
 * weights, refitted on all sets, and left out (fitted on every other group: the figure to trust).
 *
 * The confidence: a logistic calibration of tonal.key.ts's CALIBRATION_INPUTS (the winner's
 * probability, its lead over the runner-up and over its relative key, the profile reading's
 * strength), fitted on the left-out predictions of every set but those named `--rendered`
 * (songs rendered from MIDI are far easier than recordings and would make it overconfident);
 * the reliability table (calibrated confidence band → share exactly right) is itself left out
 * by group. `--write` writes the weights refitted on all sets and that calibration to
 * src/engine/key.weights.json (or the file given). `--features` keeps every clip's measured
 * profiles in a file, read instead of the audio when it exists (delete it after changing the engine).
 * `--plain` fits and scores the model on the plain chroma instead of the sustained one (what the
 * sustained chroma is worth; never with --write).
 *
 * `--judge classical-whole=classical-keys`: a set that only judges, never fitted on, read as the
 * service reads a file (the key over the whole file when it is longer than its window:
 * track.whole.ts), predicted by weights fitted on every set but the one named after `=` (the set
 * cut from the same recordings, whose clips would otherwise be its own answers); its row's "left
 * out" is that figure. Judged sets take no part in the calibration either.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { decodeAnalysisWindow } from '../src/engine/decode';
import { Stft } from '../src/engine/signal.stft';
import { chromaOf, chromaSum } from '../src/engine/tonal.chroma';
import {
  CALIBRATION_INPUTS,
  DEGREE_SCALE,
  FITTED_KEY_MODEL,
  KEY_FEATURES,
  PROFILE_NAMES,
  calibrationInputs,
  keyFeatures,
  keyProbabilities,
  modelOfWeights,
  weightVector,
} from '../src/engine/tonal.key';
import { fitLogistic, leftOutByGroup } from '../measure/fit/logistic';
import { mirexKeyScore, readTruth } from '../measure/corpora/truth';
import { printReliability, printReliabilityBySet } from './lib/reliability';
import { optionalFileFlag, setWeightsOf } from './lib/tools';
import { analysisWindowOf } from './lib/window-cache';

interface Clip {
  set: string;
  group: string;
  file: string;
  /** The right key's index: tonic for major, 12 + tonic for minor. */
  target: number;
  sustained: number[];
  bass: number[];
  plain: number[];
}

interface Options {
  cache?: string;
  features?: string;
  byGenre: Set<string>;
  setWeights: Map<string, number>;
  rendered: Set<string>;
  l2: number;
  write?: string;
  plain: boolean;
  /** Judged sets (never fitted on) → the fit set they are held out with. */
  judges: Map<string, string>;
  dirs: string[];
}

const USAGE =
  'usage: npm run bench:key-profiles -- <dir> [<dir>...] [--cache <dir>] [--features <file>] [--by-genre <set>,...] [--weight <set>=<w>,...] [--rendered <set>,...] [--l2 0.01] [--judge <set>=<fit set>,...] [--plain] [--write [<file>]]';

function parseOptions(args: string[]): Options {
  const valued = new Set(['--cache', '--features', '--by-genre', '--weight', '--rendered', '--l2', '--judge']);
  const value = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const list = (name: string): string[] => (value(name) ?? '').split(',').filter(Boolean);
  const { file: write, at: writeAt } = optionalFileFlag(args, '--write', resolve(__dirname, '../src/engine/key.weights.json'));
  const dirs = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? '') && i !== writeAt);
  const setWeights = setWeightsOf(list('--weight'));
  const l2 = Number(value('--l2') ?? 0.01);
  if (!(l2 >= 0)) throw new Error('--l2: expected a number >= 0');
  const plain = args.includes('--plain');
  if (plain && write) throw new Error('--plain: the engine reads the sustained chroma, so its weights are never written from the plain one');
  const judges = new Map(
    list('--judge').map((pair) => {
      const [set, fitSet] = pair.split('=');
      if (!set || !fitSet) throw new Error(`--judge: expected <set>=<fit set>, got "${pair}"`);
      return [set, fitSet] as const;
    }),
  );
  return { cache: value('--cache'), features: value('--features'), byGenre: new Set(list('--by-genre')), setWeights, rendered: new Set(list('--rendered')), l2, write, plain, judges, dirs };
}

const genreOf = (file: string): string => basename(file).split('.')[0]!;

async function measure(opts: Options): Promise<Clip[]> {
  if (opts.features && existsSync(opts.features)) return JSON.parse(readFileSync(opts.features, 'utf8')) as Clip[];
  if (opts.cache) mkdirSync(opts.cache, { recursive: true });
  const stft = new Stft();
  const clips: Clip[] = [];
  for (const dir of opts.dirs) {
    const set = basename(dir);
    for (const row of readTruth(dir)) {
      if (row.tonic === undefined || row.modeBinary === undefined) continue;
      // A judged set is read as the service reads a file: its key over the whole file when the window is part of it.
      const audio = opts.judges.has(set) ? await decodeAnalysisWindow(readFileSync(join(dir, row.file)), 30) : undefined;
      const chroma = chromaOf(stft.spectrogram(stft.halfRate(audio?.samples ?? (await analysisWindowOf(dir, row.file, opts.cache)))));
      clips.push({
        set,
        group: set,
        file: row.file,
        target: row.tonic + (row.modeBinary === 1 ? 0 : 12),
        sustained: Array.from(audio?.wholeTrack?.sustained ?? chromaSum(chroma, 0, chroma.count, 'sustained')),
        bass: Array.from(audio?.wholeTrack?.bass ?? chromaSum(chroma, 0, chroma.count, 'bass')),
        plain: Array.from(chromaSum(chroma)),
      });
      process.stderr.write('.');
    }
    process.stderr.write(` ${set}\n`);
  }
  if (opts.features) writeFileSync(opts.features, JSON.stringify(clips));
  return clips;
}

interface Prepared {
  clip: Clip;
  /** The chroma the features were read from (sustained, or plain with --plain). */
  chroma: number[];
  features: Float64Array[];
  weight: number;
}

/** Every group weighs alike (times its set's --weight, shared among the set's groups); within a group, every clip alike. */
function prepare(clips: Clip[], opts: Options): Prepared[] {
  const groups = new Map<string, Clip[]>();
  for (const c of clips) groups.set(c.group, (groups.get(c.group) ?? []).concat(c));
  const groupsOfSet = new Map<string, number>();
  for (const [, members] of groups) groupsOfSet.set(members[0]!.set, (groupsOfSet.get(members[0]!.set) ?? 0) + 1);
  return clips.map((clip) => {
    const members = groups.get(clip.group)!.length;
    const setWeight = opts.setWeights.get(clip.set);
    const groupWeight = setWeight === undefined ? 1 : setWeight / groupsOfSet.get(clip.set)!;
    const chroma = opts.plain ? clip.plain : clip.sustained;
    return { clip, chroma, features: keyFeatures(chroma, clip.bass), weight: groupWeight / members };
  });
}

/** Softmax regression over the 24 keys, by Adam on the weighted mean loss plus l2 · |w|². */
function fitWeights(rows: Prepared[], l2: number, iterations = 2000): Float64Array {
  const w = new Float64Array(KEY_FEATURES);
  const m = new Float64Array(KEY_FEATURES);
  const v = new Float64Array(KEY_FEATURES);
  const total = rows.reduce((s, r) => s + r.weight, 0);
  for (let it = 1; it <= iterations; it++) {
    const grad = Float64Array.from(w, (x) => 2 * l2 * x);
    for (const { clip, features, weight } of rows) {
      const p = keyProbabilities(features, w);
      for (let k = 0; k < 24; k++) {
        const d = (p[k]! - (k === clip.target ? 1 : 0)) * (weight / total);
        const f = features[k]!;
        for (let i = 0; i < KEY_FEATURES; i++) grad[i]! += d * f[i]!;
      }
    }
    for (let i = 0; i < KEY_FEATURES; i++) {
      m[i] = 0.9 * m[i]! + 0.1 * grad[i]!;
      v[i] = 0.999 * v[i]! + 0.001 * grad[i]! ** 2;
      w[i]! -= (0.05 * (m[i]! / (1 - 0.9 ** it))) / (Math.sqrt(v[i]! / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  return w;
}

interface Prediction {
  clip: Clip;
  probabilities: Float64Array;
  best: number;
  /** What the confidence's calibration reads of this prediction. */
  inputs: Record<string, number>;
}

function predict(rows: Prepared[], w: ArrayLike<number>): Prediction[] {
  return rows.map(({ clip, chroma, features }) => {
    const probabilities = keyProbabilities(features, w);
    let best = 0;
    for (let k = 1; k < 24; k++) if (probabilities[k]! > probabilities[best]!) best = k;
    return { clip, probabilities, best, inputs: calibrationInputs(probabilities, chroma, clip.bass) };
  });
}

const mirexOf = (p: Prediction): number => mirexKeyScore(p.best % 12, p.best < 12 ? 1 : 0, p.clip.target % 12, p.clip.target < 12 ? 1 : 0);

/** Each group's clips predicted by weights fitted on every other group. */
function leftOut(rows: Prepared[], l2: number): Prediction[] {
  const out: Prediction[] = [];
  for (const group of new Set(rows.map((r) => r.clip.group))) {
    const w = fitWeights(rows.filter((r) => r.clip.group !== group), l2);
    out.push(...predict(rows.filter((r) => r.clip.group === group), w));
  }
  return out;
}

function calibrationRows(predictions: Prediction[]): { rows: Record<string, number>[]; right: boolean[] } {
  return { rows: predictions.map((p) => p.inputs), right: predictions.map((p) => p.best === p.clip.target) };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const mean = (x: number[]): number => (x.length ? x.reduce((a, b) => a + b, 0) / x.length : NaN);

async function main(): Promise<void> {
  let opts: Options;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (opts.dirs.length === 0 && !(opts.features && existsSync(opts.features))) {
    console.error(USAGE);
    process.exit(2);
  }
  const clips = (await measure(opts)).map((c) => ({ ...c, group: opts.byGenre.has(c.set) ? `${c.set}/${genreOf(c.file)}` : c.set }));
  const everyRow = prepare(clips, opts);
  const rows = everyRow.filter((r) => !opts.judges.has(r.clip.set));
  const judged = everyRow.filter((r) => opts.judges.has(r.clip.set));
  const sets = [...new Set(clips.map((c) => c.set))];
  const shipped = predict(everyRow, weightVector(FITTED_KEY_MODEL));
  const all = fitWeights(rows, opts.l2);
  const refit = predict(everyRow, all);
  const held = leftOut(rows, opts.l2);
  const judgedHeld = [...opts.judges].flatMap(([set, fitSet]) =>
    predict(
      judged.filter((r) => r.clip.set === set),
      fitWeights(
        rows.filter((r) => r.clip.set !== fitSet),
        opts.l2,
      ),
    ),
  );
  const heldOrJudged = [...held, ...judgedHeld];

  console.log(`key model: ${PROFILE_NAMES.join(', ')} profiles on the ${opts.plain ? 'plain' : 'sustained'} chroma and the bass line (×concentration), minor and the chroma's degrees from the tonic; L2 ${opts.l2}`);
  console.log(`${'set'.padEnd(24)}${'clips'.padStart(6)}${'groups'.padStart(7)}   MIREX shipped   refit  left out   exact left out`);
  for (const set of sets) {
    const mine = (ps: Prediction[]) => ps.filter((p) => p.clip.set === set);
    const groups = new Set(clips.filter((c) => c.set === set).map((c) => c.group)).size;
    const exact = mean(mine(heldOrJudged).map((p) => (p.best === p.clip.target ? 1 : 0)));
    const judgedBy = opts.judges.get(set);
    console.log(
      `${set.padEnd(24)}${String(mine(heldOrJudged).length).padStart(6)}${String(groups).padStart(7)}   ${mean(mine(shipped).map(mirexOf)).toFixed(3).padStart(13)}${mean(mine(refit).map(mirexOf)).toFixed(3).padStart(8)}${mean(mine(heldOrJudged).map(mirexOf)).toFixed(3).padStart(10)}${pct(exact).padStart(17)}${judgedBy ? `   (judged only, the whole file; left out: fitted without ${judgedBy})` : ''}`,
    );
  }
  const refitted = modelOfWeights(all);
  const shown = (x: number[]) => x.map((v) => v.toFixed(3)).join(' ');
  console.log(`refitted weights: chroma ${shown(refitted.chroma)}; bass ${shown(refitted.bass)}; minor ${refitted.minor.toFixed(3)}`);
  console.log(`  degrees from the tonic (I … VII, ×${DEGREE_SCALE}): major ${shown(refitted.degrees.major)}; minor ${shown(refitted.degrees.minor)}`);

  const recorded = held.filter((p) => !opts.rendered.has(p.clip.set));
  if (new Set(recorded.map((p) => p.clip.group)).size < 2) {
    console.log('\n(calibration: needs left-out predictions of at least two groups not named --rendered)');
    return;
  }
  // Calibrated confidence of each recorded clip's left-out prediction, the calibration itself fitted without the clip's group.
  const confidences = leftOutByGroup(recorded, (p) => p.clip.group, (p) => p.inputs, (p) => p.best === p.clip.target, CALIBRATION_INPUTS, 0.1);
  printReliability(
    `key confidence, left out (calibrated on the other groups' left-out predictions; ${recorded.length} clips not rendered)`,
    recorded,
    (p) => confidences.get(p)!,
    (p) => p.best === p.clip.target,
    { name: 'MIREX', of: mirexOf },
  );
  printReliabilityBySet(recorded, (p) => p.clip.set, (p) => confidences.get(p)!, (p) => p.best === p.clip.target);

  if (opts.write) {
    const { rows: calRows, right } = calibrationRows(recorded);
    const calibration = fitLogistic(calRows, right, CALIBRATION_INPUTS, 0.1);
    const counts = sets.filter((s) => !opts.judges.has(s)).map((s) => `${s} ${clips.filter((c) => c.set === s).length}${opts.setWeights.has(s) ? ` (weight ${opts.setWeights.get(s)})` : ''}${opts.rendered.has(s) ? ' (rendered)' : ''}`);
    const round = (x: number) => Math.round(x * 1e4) / 1e4;
    const file = {
      fittedOn: counts.join(', '),
      method: `softmax regression over the 24 keys, L2 ${opts.l2}, every group alike${opts.byGenre.size ? ` (by genre: ${[...opts.byGenre].join(', ')})` : ''}; calibration: ridge logistic regression (λ 0.1) of exactly right on the left-out predictions of the sets not rendered; npm run bench:key-profiles -- --write`,
      chroma: refitted.chroma.map(round),
      bass: refitted.bass.map(round),
      minor: round(refitted.minor),
      degrees: { major: refitted.degrees.major.map(round), minor: refitted.degrees.minor.map(round) },
      calibration: { bias: round(calibration.bias), ...Object.fromEntries(CALIBRATION_INPUTS.map((k) => [k, round(calibration.weights[k]!)])) },
    };
    writeFileSync(opts.write, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`\nwrote ${opts.write}`);
  }
}

void main();
