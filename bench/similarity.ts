/**
 * The sound embeddings (src/engine/sound.embedding.ts): fitted, and judged by people's groupings.
 *
 * `npm run bench:similarity -- --dataset DIR --fit FILE [--models DIR] [--cache DIR] [--seeds 3] [--write [--weights FILE]]`
 *
 *   --dataset DIR   the 4Q dataset (bench/corpora/4q.md): the annotations and metadata CSVs and Q1..Q4/<id>.mp3
 *   --fit FILE      the ids to fit on, one a line; the dataset's other songs are never read
 *   --models DIR    Essentia's models, laid out as MODELS_DIR (default: TRACKGRAPH_TEST_MODELS_DIR); without
 *                   them the models' rows are left out
 *   --cache DIR     per-quadrant JSON of each clip's measurements (default bench/.cache/similarity)
 *   --seeds N       shuffles of the artists into folds whose left-out scores are averaged (default 3)
 *   --write         fit both embeddings on every fit song and write src/engine/sound.weights.json (or --weights);
 *                   without models, the models' part the file already has is kept
 *
 * Every song is measured as the engine measures it (its 255 signal statistics, `inputs.sound`, and
 * its cepstral frames, cached under frames/;
 * with the models, the tagger's 200-unit layer and the classifiers, averaged over the window's
 * patches). Judged as the issue that asked for similarity by sound judges it: each song's ten
 * nearest among the others (cosine); "same artist": the share of the songs whose artist has
 * another song in the set that find one among their ten; "genre" and "quadrant": the mean share of
 * the ten with the song's AllMusic genre (the first of the metadata's GenresStr) and its emotion
 * quadrant. Left out: the artists in five folds, each fold's songs judged by a fit on the other
 * four (an artist is never on both sides), averaged over the shuffles. The anchor is
 * AudioMuse-AI's method: the tagger's layer averaged, compared by cosine, no fit.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CLASSIFIER_ORDER, SOUND_FEATURE_NAMES, applyBlocks, modelsEmbedding, signalEmbedding, standardise, type EmbeddingBlock, type ModelsEmbeddingWeights, type SoundWeights } from '../src/engine/sound.embedding';
import { DEFAULT_PATCHES } from '../src/engine/models/model-files';
import { ModelRunner } from '../src/engine/models/runtime';
import { QUADRANTS, readFourQuadrants, readIdList } from '../measure/corpora/four-quadrants';
import { TEST_MODELS_DIR } from '../measure/models/test-models';
import { measureCorpus, type MeasuredClip } from './lib/measure-corpus';
import { columnStats, fitModels, fitSignal, leftOutScores, neighbourScores, fitFrames, type Labelled, type NeighbourScores } from '../measure/fit/sound-fit';
import { cepstralFrames } from '../src/engine/sound.frames';
import { Stft } from '../src/engine/signal.stft';
import { decodeAnalysisWindow } from '../src/engine/decode';
import { ALGORITHM_VERSION } from '../src/engine/version';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    fit: { type: 'string' },
    models: { type: 'string', default: TEST_MODELS_DIR },
    cache: { type: 'string', default: path.resolve(__dirname, '.cache', 'similarity') },
    seeds: { type: 'string', default: '3' },
    write: { type: 'boolean', default: false },
    weights: { type: 'string', default: path.resolve(__dirname, '..', 'src', 'engine', 'sound.weights.json') },
  },
});

/**
 * The signal path's recipes (sound.embedding.ts says what each part is): the statistics' blocks
 * (principal components, and a shrunk discriminant of the genres at its weight: of each song's
 * first genre, or of all its genres) and the bag of frames (32 Gaussians fitted on every sixth
 * frame of the fit songs, 12 EM steps; MAP adaptation at `relevance`; the supervectors' 128
 * leading components each scaled by variance^-1/4, unit length times √1.25; from signal/4 on, a
 * discriminant of all the genres over those components whitened). The shipped one is SIGNAL;
 * engine 28's is printed beside it.
 */
const SIGNAL = {
  name: 'signal/4',
  statistics: { components: 64, discriminants: 10, shrinkage: 0.7, discriminantWeight: 1 },
  allGenres: true,
  frames: { components: 32, frameStride: 6, relevance: 1, projection: 128, power: 0.25, weight: Math.sqrt(1.25), discriminant: { directions: 10, shrinkage: 0.7, weight: 0.7 } },
} as const;
const SIGNAL_BEFORE = {
  name: 'signal/3',
  statistics: SIGNAL.statistics,
  allGenres: false,
  frames: { components: 32, frameStride: 6, relevance: 16, projection: 128, power: 0.25, weight: Math.sqrt(1.25) },
} as const;
type SignalRecipe = typeof SIGNAL | typeof SIGNAL_BEFORE;
/**
 * The models' recipes: the tagger layer's principal components scaled by variance^-1/4 (unit
 * length) and a fifth as much of the classifiers; from musicnn/2 on, 0.7 as much of the 15
 * directions of those components (whitened) that best separate all of the songs' genres, and the
 * signal path's embedding, fitted on the same songs, beside. The shipped one is MODELS.
 */
const MODELS = { name: 'musicnn/2', components: 128, power: 0.25, classifierWeight: 0.2, discriminant: { directions: 15, shrinkage: 0.7, weight: 0.7 }, signalWeight: 1 } as const;
const MODELS_BEFORE = { name: 'musicnn/1', components: 64, power: 0.25, classifierWeight: 0.2 } as const;
type ModelsRecipe = typeof MODELS | typeof MODELS_BEFORE;

interface Song extends Labelled {
  id: string;
  /** All of the song's AllMusic genres (`genre` is the first). */
  genres: string[];
  file: string;
  sound: number[];
  layer?: number[];
  classifiers?: number[];
}

/** A CSV's rows (RFC 4180: quoted fields may hold commas, quotes doubled). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Artist, first genre and every genre of each song id, from the dataset's metadata. */
function metadata(dir: string): Map<string, { artist: string; genre: string; genres: string[] }> {
  const [header, ...rows] = csvRows(readFileSync(path.join(dir, 'panda_dataset_taffc_metadata.csv'), 'utf8'));
  const at = (name: string): number => {
    const i = header!.indexOf(name);
    if (i < 0) throw new Error(`panda_dataset_taffc_metadata.csv has no ${name} column`);
    return i;
  };
  const [song, artist, genres] = [at('Song'), at('Artist'), at('GenresStr')];
  return new Map(
    rows.map((r) => {
      const all = (r[genres] ?? '').split(';').map((g) => g.trim());
      return [r[song]!, { artist: r[artist]!.trim().toLowerCase(), genre: all[0]!, genres: all.filter((g) => g.length > 0) }];
    }),
  );
}

async function measure(): Promise<Song[]> {
  const dir = values.dataset!;
  const fit = readIdList(values.fit!);
  const songs = readFourQuadrants(dir).filter((s) => fit.has(s.id));
  if (songs.length < fit.size) throw new Error(`${values.fit}: ${fit.size - songs.length} ids the dataset lacks`);
  const meta = metadata(dir);
  let loaded: Promise<ModelRunner> | undefined;
  const runner = values.models ? (): Promise<ModelRunner> => (loaded ??= ModelRunner.load(values.models)) : undefined;
  const measured = new Map<string, MeasuredClip>();
  for (const q of QUADRANTS) {
    const files = songs.filter((s) => s.quadrant === q).map((s) => s.file);
    for (const c of await measureCorpus(`4q-${q}`, files, runner, { cacheDir: values.cache, patches: DEFAULT_PATCHES })) measured.set(c.file.replace(/\.mp3$/, ''), c);
  }
  if (loaded) (await loaded).dispose();
  return songs.flatMap((s) => {
    const m = measured.get(s.id);
    const labels = meta.get(s.id);
    if (!m?.inputs.sound || !labels) return [];
    const models = m.models;
    return [
      {
        id: s.id,
        file: s.file,
        quadrant: s.quadrant,
        ...labels,
        sound: m.inputs.sound,
        ...(models?.embedding && models.embedding.length > 0
          ? { layer: models.embedding, classifiers: CLASSIFIER_ORDER.map((name) => models.classes[name]) }
          : {}),
      },
    ];
  });
}

const f3 = (x: number): string => x.toFixed(3);

/** Each song's cepstral frames, measured once and cached by the file's size and time and the engine (frames/<id>-<size>-<mtime>-<engine>.f32). */
async function framesOf(songs: readonly Song[]): Promise<Float32Array[]> {
  const dir = path.join(values.cache, 'frames');
  mkdirSync(dir, { recursive: true });
  const stft = new Stft();
  const out: Float32Array[] = [];
  for (const s of songs) {
    const { size, mtimeMs } = statSync(s.file);
    const file = path.join(dir, `${s.id}-${size}-${Math.round(mtimeMs)}-${ALGORITHM_VERSION}.f32`);
    if (!existsSync(file)) {
      const audio = await decodeAnalysisWindow(new Uint8Array(readFileSync(s.file)), 30);
      const frames = cepstralFrames(stft.spectrogram(stft.halfRate(audio.samples)));
      writeFileSync(file, new Uint8Array(frames.buffer, frames.byteOffset, frames.byteLength));
    }
    const bytes = readFileSync(file);
    out.push(new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
  }
  return out;
}

function row(name: string, s: NeighbourScores, anchor?: NeighbourScores): string {
  const ratio = anchor ? `  (${(s.artist / anchor.artist).toFixed(2)}x, ${(s.genre / anchor.genre).toFixed(2)}x the anchor)` : '';
  return `${name.padEnd(58)} ${f3(s.artist).padStart(7)} ${f3(s.genre).padStart(7)} ${f3(s.quadrant).padStart(9)}${ratio}`;
}

/** The mean of left-out scores over `seeds` shuffles of the artists. */
function averaged(labels: readonly Labelled[], embed: (fit: readonly number[]) => number[][], seeds: number): NeighbourScores {
  const runs = Array.from({ length: seeds }, (_, seed) => leftOutScores(labels, embed, 5, seed));
  const mean = (k: 'artist' | 'genre' | 'quadrant'): number => runs.reduce((s, r) => s + r[k], 0) / runs.length;
  return { artist: mean('artist'), genre: mean('genre'), quadrant: mean('quadrant'), withArtistMates: runs[0]!.withArtistMates };
}

/** The genres a recipe's discriminants are fitted on: each song's first, or all of them. */
const genresOf = (songs: readonly Song[], fit: readonly number[], recipe: SignalRecipe): (string | string[])[] => fit.map((i) => (recipe.allGenres ? songs[i]!.genres : songs[i]!.genre));

/** The statistics' blocks alone (the shipped recipe's, without the frames' part). */
function statisticsVectors(songs: readonly Song[], fit: readonly number[]): number[][] {
  const w = fitSignal(fit.map((i) => songs[i]!.sound), genresOf(songs, fit, SIGNAL), SIGNAL.statistics);
  return songs.map((s) => applyBlocks(standardise(s.sound, w.mean, w.std), w.blocks));
}

/** The signal path's weights fitted on the songs `fit` (the shipped recipe's remembered: musicnn/2 embeds with them again). */
const fittedSignalPaths = new Map<string, NonNullable<SoundWeights['signal']>>();
function fitSignalPath(songs: readonly Song[], frames: readonly Float32Array[], fit: readonly number[], recipe: SignalRecipe = SIGNAL): NonNullable<SoundWeights['signal']> {
  const key = recipe === SIGNAL ? fit.join(',') : undefined;
  const known = key === undefined ? undefined : fittedSignalPaths.get(key);
  if (known) return known;
  const genres = genresOf(songs, fit, recipe);
  const fitted = { ...fitSignal(fit.map((i) => songs[i]!.sound), genres, recipe.statistics), frames: fitFrames(fit.map((i) => frames[i]!), recipe.frames, genres) };
  if (key !== undefined) fittedSignalPaths.set(key, fitted);
  return fitted;
}

/** Every song's signal embedding by the given weights. */
function embedSignal(songs: readonly Song[], frames: readonly Float32Array[], signal: NonNullable<SoundWeights['signal']>): number[][] {
  return songs.map((s, i) => signalEmbedding(s.sound, frames[i]!, { signal })!.vector);
}

function signalVectors(songs: readonly Song[], frames: readonly Float32Array[], fit: readonly number[], recipe: SignalRecipe = SIGNAL): number[][] {
  return embedSignal(songs, frames, fitSignalPath(songs, frames, fit, recipe));
}

/** The models' weights fitted on the songs `fit` (all of each song's genres for the discriminant). */
function fitModelsOn(songs: readonly Song[], fit: readonly number[], recipe: ModelsRecipe): ModelsEmbeddingWeights {
  return fitModels(fit.map((i) => songs[i]!.layer!), fit.map((i) => songs[i]!.classifiers!), recipe, fit.map((i) => songs[i]!.genres));
}

/** Every song's models' embedding by weights fitted on the songs `fit` (and, where the recipe wants it, the signal path's fitted on them too). */
function modelVectors(songs: readonly Song[], frames: readonly Float32Array[], fit: readonly number[], recipe: ModelsRecipe = MODELS): number[][] {
  const w = fitModelsOn(songs, fit, recipe);
  const signal = w.signal ? embedSignal(songs, frames, fitSignalPath(songs, frames, fit)) : undefined;
  return songs.map((s, i) => modelsEmbedding(s.layer!, Object.fromEntries(CLASSIFIER_ORDER.map((n, c) => [n, s.classifiers![c]!])) as Parameters<typeof modelsEmbedding>[1], signal?.[i], { models: w })!.vector);
}

async function main(): Promise<void> {
  if (!values.dataset || !values.fit) throw new Error('give --dataset DIR (the 4Q dataset) and --fit FILE (the ids to fit on)');
  const seeds = Number(values.seeds);
  if (!Number.isInteger(seeds) || seeds < 1) throw new Error('--seeds must be a whole number of at least 1');
  const songs = await measure();
  const withModels = songs.every((s) => s.layer);
  const all = songs.map((_, i) => i);
  const chance = (k: 'genre' | 'quadrant'): number => songs.reduce((s, a) => s + (songs.filter((b) => b !== a && b[k] === a[k]).length / (songs.length - 1)), 0) / songs.length;
  console.log(`${songs.length} songs, ${new Set(songs.map((s) => s.artist)).size} artists (${neighbourScores(songs.map(() => [1]), songs).withArtistMates} songs whose artist has another), ${new Set(songs.map((s) => s.genre)).size} genres`);
  console.log(`${'embedding'.padEnd(58)} ${'artist'.padStart(7)} ${'genre'.padStart(7)} ${'quadrant'.padStart(9)}`);
  console.log(`${'chance'.padEnd(58)} ${''.padStart(7)} ${f3(chance('genre')).padStart(7)} ${f3(chance('quadrant')).padStart(9)}`);
  const anchor = withModels ? neighbourScores(songs.map((s) => s.layer!), songs) : undefined;
  if (anchor) console.log(row("anchor: the tagger's layer averaged, cosine (no fit)", anchor));
  else console.log('(no models: the anchor and the models\' embedding are left out; give --models or TRACKGRAPH_TEST_MODELS_DIR)');
  const z = columnStats(songs.map((s) => s.sound));
  console.log(row('signal: the 255 statistics standardised (in-sample)', neighbourScores(songs.map((s) => standardise(s.sound, z.mean, z.std)), songs), anchor));
  const frames = await framesOf(songs);
  const leftOut = `left out (artists in 5 folds, ${seeds} shuffles)`;
  console.log(row(`the statistics' blocks alone, ${leftOut}`, averaged(songs, (fit) => statisticsVectors(songs, fit), seeds), anchor));
  console.log(row(`${SIGNAL_BEFORE.name} (engine 28), ${leftOut}`, averaged(songs, (fit) => signalVectors(songs, frames, fit, SIGNAL_BEFORE), seeds), anchor));
  // Fitted on every song: the in-sample row, and the weights --write writes.
  const fittedSignal = fitSignalPath(songs, frames, all);
  console.log(row(`${SIGNAL.name}, in-sample`, neighbourScores(embedSignal(songs, frames, fittedSignal), songs), anchor));
  console.log(row(`${SIGNAL.name}, ${leftOut}`, averaged(songs, (fit) => signalVectors(songs, frames, fit), seeds), anchor));
  if (withModels) {
    console.log(row(`${MODELS_BEFORE.name} (engines 25–30), ${leftOut}`, averaged(songs, (fit) => modelVectors(songs, frames, fit, MODELS_BEFORE), seeds), anchor));
    console.log(row(`${MODELS.name}, in-sample`, neighbourScores(modelVectors(songs, frames, all), songs), anchor));
    console.log(row(`${MODELS.name}, ${leftOut}`, averaged(songs, (fit) => modelVectors(songs, frames, fit), seeds), anchor));
  }
  if (!values.write) return;
  const round = (v: number): number => Number(v.toPrecision(6));
  const deep = <T>(x: T): T => (Array.isArray(x) ? (x.map(deep) as T) : typeof x === 'number' ? (round(x) as T) : x && typeof x === 'object' ? (Object.fromEntries(Object.entries(x).map(([k, v]) => [k, deep(v)])) as T) : x);
  // Without the models, a file's own models' part stays: refitting the signal path needs no models.
  const kept = withModels || !existsSync(values.weights) ? undefined : (JSON.parse(readFileSync(values.weights, 'utf8')) as SoundWeights).models;
  // The frames' blocks (1,280 × 128 and 1,280 × 10 numbers) at four significant digits: the file
  // stays under 2 MB, and a projection's relative error of ~5e-5 is far below what a cosine of hundreds of numbers tells apart.
  const fourDigitRows = (m: number[][]): number[][] => m.map((r) => r.map((v) => Number(v.toPrecision(4))));
  const fourDigits = (b: EmbeddingBlock): EmbeddingBlock => ({ ...b, matrix: fourDigitRows(b.matrix) });
  const { block, discriminant } = fittedSignal.frames!;
  const signal = { ...fittedSignal, frames: { ...fittedSignal.frames!, block: fourDigits(block), ...(discriminant ? { discriminant: fourDigits(discriminant) } : {}) } };
  // So too the models' components (128 × 200) and genre directions (200 × 15).
  const fittedModels = (fitted: ModelsEmbeddingWeights): ModelsEmbeddingWeights => {
    const m = deep(fitted);
    return { ...m, components: fourDigitRows(m.components), ...(m.discriminant ? { discriminant: fourDigits(m.discriminant) } : {}) };
  };
  const { statistics: st, frames: fr } = SIGNAL;
  const weights: SoundWeights & { fittedOn: string; method: string; features: readonly string[] } = {
    fittedOn: `4Q audio emotion dataset (Panda, Malheiro & Paiva, IEEE TAFFC 2018): the ${songs.length} songs of the fit list; genres each song's AllMusic genres (GenresStr)`,
    method: `${SIGNAL.name}: the ${SOUND_FEATURE_NAMES.length} statistics standardised, ${st.components} principal components (unit length) and ${st.discriminantWeight} x the ${st.discriminants} leading directions of a linear discriminant of the songs' genres (all of each song's, each at 1 / their number; within-class covariance shrunk ${st.shrinkage} of the way to its mean variance; unit length), and the cepstral frames' supervector against ${fr.components} diagonal Gaussians fitted on every ${fr.frameStride}th frame of the songs (relevance ${fr.relevance}), its ${fr.projection} principal components scaled by variance^-${fr.power}, unit length times ${fr.weight.toFixed(3)}, and ${fr.discriminant.weight} x the ${fr.discriminant.directions} leading directions of a discriminant of the genres over those components whitened (shrunk ${fr.discriminant.shrinkage}; unit length); ${MODELS.name}: the tagger layer's ${MODELS.components} principal components each scaled by variance^-${MODELS.power}, unit length, ${MODELS.classifierWeight} x the five classifiers centred, unit length, ${MODELS.discriminant.weight} x the ${MODELS.discriminant.directions} leading directions of a discriminant of the songs' genres over those components whitened (shrunk ${MODELS.discriminant.shrinkage}; unit length), and the signal path's embedding times ${MODELS.signalWeight}; npm run bench:similarity -- --write`,
    features: SOUND_FEATURE_NAMES,
    signal: deep(signal),
    ...(withModels ? { models: fittedModels(fitModelsOn(songs, all, MODELS)) } : kept ? { models: kept } : {}),
  };
  writeFileSync(values.weights, `${JSON.stringify(weights)}\n`);
  console.log(`\nwrote ${values.weights}${withModels ? '' : kept ? " (the signal path; the models' part kept from the file: no models to fit it)" : ' (the signal path only: no models)'}`);
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
