/**
 * The moods held to people's judgements, on the 4Q audio emotion dataset (Panda, Malheiro &
 * Paiva, IEEE TAFFC 2018; bench/corpora/4q.md says how to get it):
 * `npm run bench:moods -- --dataset DIR --fit FILE [--models DIR] [--judge] [--write [--weights FILE]] [--cache DIR] [--only Q1,Q2] [--measure-only]`
 *
 *   --dataset DIR   the dataset: panda_dataset_taffc_annotations.csv and Q1..Q4/<id>.mp3
 *   --fit FILE      the ids valence is fitted on, one a line (the dataset's other songs are held
 *                   back: scored only with --judge, never fitted or chosen on)
 *   --models DIR    Essentia's models, laid out as MODELS_DIR (default: TRACKGRAPH_TEST_MODELS_DIR;
 *                   without them, the signal path alone)
 *   --judge         also score the held-back songs
 *   --write         fit both valence models on all the fit songs and write them to the weights
 *                   file, with the tables docs/FEATURES.md lists
 *   --weights FILE  the file --write writes (default src/engine/valence.weights.json: the
 *                   engine's shipped weights)
 *   --cache DIR     per-quadrant JSON of each clip's measurements (default bench/.cache/moods)
 *   --only Q1,Q2    measure these quadrants only (to split the measuring between processes)
 *   --measure-only  measure and stop
 *
 * Printed: the AUC of each descriptor for the split of the quadrants it should make (0.5 is
 * chance, 1 a perfect order), for the signal path and the models' path, as the engine ships
 * them (on the fit songs valence is in-sample: it was fitted on them; on the held-back songs
 * nothing was); valence cross-validated on the fit songs (each song scored by a model fitted
 * without it: 10 folds stratified by quadrant, 5 shuffles); the four-quadrant accuracy of
 * (valence, arousal) read as a point, each cut at 0.5; and the ridge penalty's scan.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type DescriptorInputs, computeDescriptors, valenceInputs } from '../src/engine/descriptor.formulas';
import { DEFAULT_PATCHES } from '../src/engine/models/model-files';
import { ModelRunner } from '../src/engine/models/runtime';
import { type LogisticFormula, logistic } from '../src/engine/logistic';
import { VALENCE_MODELS, modelValenceInputs } from '../src/engine/valence';
import { type CachedModels } from './lib/descriptor-cache';
import { QUADRANTS, type Quadrant, energetic, positive, readFourQuadrants, readIdList } from '../measure/corpora/four-quadrants';
import { auc, crossValidated, fitLogistic, logit } from '../measure/fit/logistic';
import { type MeasuredClip, measureCorpus } from './lib/measure-corpus';
import { valenceWeightsMarkdown } from '../measure/fit/valence-table';
import { TEST_MODELS_DIR } from '../measure/models/test-models';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    fit: { type: 'string' },
    models: { type: 'string', default: TEST_MODELS_DIR },
    cache: { type: 'string', default: path.resolve(__dirname, '.cache', 'moods') },
    only: { type: 'string' },
    judge: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    weights: { type: 'string', default: path.resolve(__dirname, '..', 'src', 'engine', 'valence.weights.json') },
    'measure-only': { type: 'boolean', default: false },
  },
});

/** The ridge penalties of the shipped fits (on standardised inputs; the scan below shows the neighbours). */
const LAMBDA = { signal: 50, models: 10 } as const;
const FOLDS = 10;
const REPEATS = 5;

interface Song {
  id: string;
  quadrant: Quadrant;
  fit: boolean;
  inputs: DescriptorInputs;
  models?: CachedModels;
}

type Path = 'signal' | 'models';

/** A descriptor's value on one path. */
type Reader = (s: Song, path: Path) => number;

/**
 * A value per song and path, made once: every fold of every shuffle reads the same song's inputs
 * and descriptors again.
 */
function perSongAndPath<T>(): (s: Song, p: Path, make: () => T) => T {
  const known = new Map<Song, Partial<Record<Path, T>>>();
  return (s, p, make) => {
    let values = known.get(s);
    if (!values) known.set(s, (values = {}));
    return (values[p] ??= make());
  };
}

const rowOnce = perSongAndPath<Record<string, number>>();

/** Each path's valence inputs (src/engine/valence.ts builds them as the engine does). */
function valenceRow(s: Song, p: Path): Record<string, number> {
  return rowOnce(s, p, () => (p === 'models' ? modelValenceInputs(s.models!.classes, s.models!.tags) : valenceInputs(s.inputs)));
}

type Shipped = { arousal: number; valence: number; mood: Record<'happy' | 'sad' | 'relaxed' | 'aggressive', number> };
const shippedOnce = perSongAndPath<Shipped>();

/** The descriptors as the engine ships them: the models' path takes the moods from the classifiers and valence from its fit, the rest from the signal. */
function shipped(s: Song, p: Path): Shipped {
  return shippedOnce(s, p, () => {
    if (p === 'signal') return computeDescriptors(s.inputs);
    const c = s.models!.classes;
    return {
      arousal: shipped(s, 'signal').arousal,
      valence: logistic(VALENCE_MODELS, valenceRow(s, 'models')),
      mood: { happy: c.mood_happy, sad: c.mood_sad, relaxed: c.mood_relaxed, aggressive: c.mood_aggressive },
    };
  });
}

/** The splits each descriptor should make: its positive side, over which songs. */
const SPLITS: ReadonlyArray<{ descriptor: string; split: string; over: (q: Quadrant) => boolean; positive: (q: Quadrant) => boolean; read: Reader }> = [
  { descriptor: 'arousal', split: 'Q1+Q2 vs Q3+Q4', over: () => true, positive: energetic, read: (s, p) => shipped(s, p).arousal },
  { descriptor: 'mood.aggressive', split: 'Q2 vs rest', over: () => true, positive: (q) => q === 'Q2', read: (s, p) => shipped(s, p).mood.aggressive },
  { descriptor: 'mood.happy', split: 'Q1 vs rest', over: () => true, positive: (q) => q === 'Q1', read: (s, p) => shipped(s, p).mood.happy },
  { descriptor: 'mood.relaxed', split: 'Q4 vs rest', over: () => true, positive: (q) => q === 'Q4', read: (s, p) => shipped(s, p).mood.relaxed },
  { descriptor: 'mood.sad', split: 'Q3 vs rest', over: () => true, positive: (q) => q === 'Q3', read: (s, p) => shipped(s, p).mood.sad },
  ...valenceSplits((s, p) => shipped(s, p).valence),
];

function valenceSplits(read: Reader): typeof SPLITS {
  return [
    { descriptor: 'valence', split: 'Q1+Q4 vs Q2+Q3', over: () => true, positive, read },
    { descriptor: 'valence, energetic songs', split: 'Q1 vs Q2', over: energetic, positive, read },
    { descriptor: 'valence, calm songs', split: 'Q4 vs Q3', over: (q) => !energetic(q), positive, read },
  ];
}

const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');

function splitAuc(songs: readonly Song[], split: (typeof SPLITS)[number], p: Path): number {
  const over = songs.filter((s) => split.over(s.quadrant));
  return auc(
    over.map((s) => split.read(s, p)),
    over.map((s) => split.positive(s.quadrant)),
  );
}

/** The quadrant (valence, arousal) names as a point, each cut at 0.5. */
function quadrantOf(valence: number, arousal: number): Quadrant {
  if (arousal >= 0.5) return valence >= 0.5 ? 'Q1' : 'Q2';
  return valence >= 0.5 ? 'Q4' : 'Q3';
}

function quadrantAccuracy(songs: readonly Song[], valence: (s: Song) => number): number {
  return songs.filter((s) => quadrantOf(valence(s), shipped(s, 'signal').arousal) === s.quadrant).length / songs.length;
}

/** A fit of one path's valence on these songs, as `--write` makes it. */
function fitValence(songs: readonly Song[], p: Path, lambda: number = LAMBDA[p]): LogisticFormula {
  const rows = songs.map((s) => valenceRow(s, p));
  const fit = fitLogistic(rows, songs.map((s) => positive(s.quadrant)), Object.keys(rows[0]!), lambda);
  const round = (v: number): number => Number(v.toPrecision(4));
  return { bias: round(fit.bias), weights: Object.fromEntries(Object.entries(fit.weights).map(([k, w]) => [k, round(w)])) };
}

/** Each fit song's valence from a model fitted without it (its log-odds; the AUCs need only their order). */
function crossValidatedValence(songs: readonly Song[], p: Path, lambda: number = LAMBDA[p]): Map<Song, number> {
  const scores = crossValidated(
    songs,
    (s) => s.quadrant,
    (train) => {
      const f = fitValence(train, p, lambda);
      return (s) => logit(f, valenceRow(s, p));
    },
    FOLDS,
    REPEATS,
  );
  return new Map(songs.map((s, i) => [s, scores[i]!]));
}

async function measure(): Promise<Song[]> {
  const songs = readFourQuadrants(values.dataset!);
  const fit = readIdList(values.fit!);
  const unknown = [...fit].filter((id) => !songs.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`${values.fit}: ${unknown.length} ids the dataset lacks (${unknown.slice(0, 3).join(', ')}…)`);
  const only = values.only ? values.only.split(',').map((q) => q.trim() as Quadrant) : QUADRANTS;
  if (only.some((q) => !QUADRANTS.includes(q))) throw new Error(`--only: quadrants are ${QUADRANTS.join(', ')}`);
  let loaded: Promise<ModelRunner> | undefined;
  // The models as the engine runs them (its factorised rank and patches).
  const runner = values.models ? (): Promise<ModelRunner> => (loaded ??= ModelRunner.load(values.models)) : undefined;
  const measured = new Map<string, MeasuredClip>();
  // The songs the fit may see first, so that a run stopped early has measured them; each
  // quadrant is a corpus of the cache.
  for (const fitting of [true, false]) {
    if (!fitting && !values.judge && !values['measure-only']) continue;
    for (const q of only) {
      const files = songs.filter((s) => s.quadrant === q && fit.has(s.id) === fitting).map((s) => s.file);
      for (const c of await measureCorpus(`4q-${q}`, files, runner, { cacheDir: values.cache, patches: DEFAULT_PATCHES })) measured.set(c.file.replace(/\.mp3$/, ''), c);
    }
  }
  if (loaded) (await loaded).dispose();
  return songs.flatMap((s) => {
    const m = measured.get(s.id);
    return m ? [{ id: s.id, quadrant: s.quadrant, fit: fit.has(s.id), inputs: m.inputs, ...(m.models && { models: m.models }) }] : [];
  });
}

async function main(): Promise<void> {
  if (!values.dataset || !values.fit) throw new Error('give --dataset DIR (the 4Q dataset) and --fit FILE (the ids to fit on)');
  const songs = await measure();
  if (values['measure-only']) return;
  const paths: Path[] = values.models ? ['signal', 'models'] : ['signal'];
  const fitSongs = songs.filter((s) => s.fit);
  const held = songs.filter((s) => !s.fit);
  const count = (list: readonly Song[]): string => QUADRANTS.map((q) => `${q} ${list.filter((s) => s.quadrant === q).length}`).join(', ');
  console.log(`4Q dataset: fit songs ${fitSongs.length} (${count(fitSongs)})${values.judge ? `; held back ${held.length} (${count(held)})` : ''}; paths: ${paths.join(', ')}\n`);

  const groups: Array<[string, readonly Song[]]> = [['fit songs', fitSongs], ...(values.judge ? [['held back', held] as [string, readonly Song[]]] : [])];
  console.log('AUC of each descriptor as the engine ships it (valence on the fit songs: in-sample, it was fitted on them)');
  console.log(`| descriptor | split | ${groups.flatMap(([g]) => paths.map((p) => `${p}, ${g}`)).join(' | ')} |`);
  console.log(`|---|---|${groups.flatMap(() => paths.map(() => '---:')).join('|')}|`);
  for (const split of SPLITS) console.log(`| ${split.descriptor} | ${split.split} | ${groups.flatMap(([, list]) => paths.map((p) => fmt(splitAuc(list, split, p)))).join(' | ')} |`);
  console.log(`| quadrant accuracy | (valence, arousal) cut at 0.5 | ${groups.flatMap(([, list]) => paths.map((p) => fmt(quadrantAccuracy(list, (s) => shipped(s, p).valence)))).join(' | ')} |`);
  console.log('');

  console.log(`Valence left out: each fit song scored by the model fitted without it (${FOLDS} folds by quadrant, ${REPEATS} shuffles); λ ${paths.map((p) => `${p} ${LAMBDA[p]}`).join(', ')}`);
  const cv = new Map(paths.map((p) => [p, crossValidatedValence(fitSongs, p)]));
  console.log(`| split | ${paths.join(' | ')} |`);
  console.log(`|---|${paths.map(() => '---:').join('|')}|`);
  for (const split of valenceSplits((s, p) => cv.get(p)!.get(s)!)) console.log(`| ${split.descriptor}: ${split.split} | ${paths.map((p) => fmt(splitAuc(fitSongs, split, p))).join(' | ')} |`);
  console.log(`| quadrant accuracy | ${paths.map((p) => fmt(quadrantAccuracy(fitSongs, (s) => (cv.get(p)!.get(s)! >= 0 ? 1 : 0)))).join(' | ')} |`);
  console.log('');

  console.log('The ridge penalty λ: valence AUC left out (all / energetic / calm)');
  console.log(`| λ | ${paths.join(' | ')} |`);
  console.log(`|---:|${paths.map(() => '---').join('|')}|`);
  for (const lambda of [1, 10, 50, 200]) {
    const cells = paths.map((p) => {
      const scores = crossValidatedValence(fitSongs, p, lambda);
      return valenceSplits((s) => scores.get(s)!).map((split) => fmt(splitAuc(fitSongs, split, p))).join(' / ');
    });
    console.log(`| ${lambda} | ${cells.join(' | ')} |`);
  }
  console.log('');

  if (values.write) {
    if (!values.models) throw new Error('--write fits both paths: give the models (--models DIR)');
    const weights = {
      fittedOn: `4Q audio emotion dataset (Panda, Malheiro & Paiva, IEEE TAFFC 2018): the ${fitSongs.length} songs of the fit list (${count(fitSongs)}); positive = Q1 or Q4`,
      method: `ridge logistic regression on standardised inputs (measure/fit/logistic.ts), λ signal ${LAMBDA.signal}, models ${LAMBDA.models}; npm run bench:moods -- --write`,
      signal: fitValence(fitSongs, 'signal'),
      models: fitValence(fitSongs, 'models'),
    };
    writeFileSync(values.weights, `${JSON.stringify(weights, null, 2)}\n`);
    console.log(`${valenceWeightsMarkdown(weights.signal, weights.models)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), values.weights)} (${Object.keys(weights.signal.weights).length} signal inputs, ${Object.keys(weights.models.weights).length} model inputs); the tables above go in docs/FEATURES.md; rerun without --write to see the shipped figures`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
