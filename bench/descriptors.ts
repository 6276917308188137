/**
 * The signal descriptors held to Essentia's trained models:
 * `npm run bench:descriptors -- --models DIR [--cache DIR] [--patches N] [--limit N] [--resignal] [--models-only] [--within-corpus] [--unseen DIR]... <dirs...>`
 *
 *   dirs           folders of audio clips, one corpus each (e.g. <corpus>/{synth,produced,recorded}):
 *                  the corpora the formulas are fitted on
 *   --unseen DIR   a corpus scored but never fitted on (repeatable; e.g. the game soundtracks of
 *                  `npm run bench:game-music`): music of another kind, as a user's would be
 *   --models DIR   Essentia's models, laid out as MODELS_DIR (default: TRACKGRAPH_TEST_MODELS_DIR)
 *   --cache DIR    per-corpus JSON of each clip's raw measurements and model outputs (default
 *                  bench/.cache/descriptors): the models run once per clip, later runs read them back
 *   --patches N    patches per window the models run on (MODELS_PATCHES; default 0: all)
 *   --limit N      clips per folder
 *   --resignal     measure the signal path again (after a change to what the engine measures)
 *   --models-only  fill the cache with the models' outputs and stop
 *   --within-corpus  also what each formula's design can say within each corpus: each clip scored
 *                  by the design fitted on its corpus' other clips alone (lib/descriptor-agreement.ts,
 *                  withinCorpus): a left-out cell under 0.6 whose figure there reaches it lacks
 *                  calibration that carries over; one whose figure stays under lacks a measurement
 *
 * Each clip's analysis window (decode.ts) goes once through the engine (the formulas' inputs and
 * values) and once through the models (ModelRunner, as MODELS_DIR does). Printed: Spearman ρ
 * between each signal descriptor and its model counterpart, per corpus, with today's formulas;
 * then each unseen corpus scored with the formulas fitted on all of `dirs`; then the same with
 * leave-one-corpus-out calibration over `dirs` (lib/descriptor-agreement.ts's `calibrate` fits
 * the formulas' coefficients on the other corpora and the left-out one is scored). Under the
 * unseen and the left-out tables, how many of their cells reach the target ρ ≥ 0.6, read
 * unrounded (instrumentalness, designed and not fitted, is not counted), and how many of those
 * where the model counterpart's interquartile range within the corpus (printed before them) is
 * at least WIDE: where it is narrower, the model gives nearly every clip the same answer. Before
 * them too, how far each model counterpart and each formula agrees with itself within each
 * corpus: ρ between its answers on each window's first and second half. Also
 * the auto-tagger's most probable tag per clip, the five commonest per corpus: what the `tags`
 * of an analysis the models made say of each kind of music.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type DescriptorInputs, computeDescriptors } from '../src/engine/descriptor.formulas';
import { tagScores } from '../src/engine/models/model-descriptors';
import { ModelRunner } from '../src/engine/models/runtime';
import { measureCorpus } from './lib/measure-corpus';
import { AGREEMENTS, type Clip, calibrate, spearman, withinCorpus } from './lib/descriptor-agreement';
import { median, percentile } from '../measure/stats';
import { TEST_MODELS_DIR } from '../measure/models/test-models';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    models: { type: 'string', default: TEST_MODELS_DIR },
    cache: { type: 'string', default: path.resolve(__dirname, '.cache', 'descriptors') },
    patches: { type: 'string', default: '0' },
    limit: { type: 'string' },
    resignal: { type: 'boolean', default: false },
    'models-only': { type: 'boolean', default: false },
    unseen: { type: 'string', multiple: true, default: [] },
    'within-corpus': { type: 'boolean', default: false },
  },
});

/**
 * The interquartile range of a model counterpart within a corpus from which its cells are also
 * counted apart. On the corpora the narrow cells read 0.003-0.056 and the others from 0.133: every
 * threshold between splits them alike.
 */
const WIDE = 0.1;
/** Clips with two halves a corpus needs before a side's agreement with itself is printed. */
const MIN_SPLIT = 8;
/**
 * A reliability ρ measured on half the length, projected to the whole (Spearman-Brown); none
 * (NaN, printed –) for halves that order the clips in opposite ways, which no length mends.
 */
const spearmanBrown = (r: number): number => (r >= 0 ? (2 * r) / (1 + r) : NaN);
const AUDIO = /\.(mp3|ogg|flac|wav|m4a|opus|aiff?)$/i;
const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');

/** A corpus folder's clips, measured (lib/measure-corpus.ts); those the models have not read are left out. */
async function measureFolder(dir: string, runner: () => Promise<ModelRunner>): Promise<Clip[]> {
  const corpus = path.basename(path.resolve(dir));
  const files = readdirSync(dir).filter((f) => AUDIO.test(f)).sort().slice(0, values.limit ? Number(values.limit) : undefined);
  const measured = await measureCorpus(corpus, files.map((f) => path.join(dir, f)), runner, {
    cacheDir: values.cache,
    patches: Number(values.patches),
    resignal: values.resignal,
    modelsOnly: values['models-only'],
    halves: true,
  });
  return measured.flatMap(({ models, ...c }) => (models ? [{ ...c, models }] : []));
}

async function main(): Promise<void> {
  if (positionals.length === 0) throw new Error('give one or more folders of clips');
  if (!values.models) throw new Error('give the models\' folder: --models DIR, or TRACKGRAPH_TEST_MODELS_DIR');
  let loaded: Promise<ModelRunner> | undefined;
  // The reference the formulas are held to: the models as trained (rank 0), not factorised.
  const runner = (): Promise<ModelRunner> => (loaded ??= ModelRunner.load(values.models, 0));
  const byCorpus = new Map<string, Clip[]>();
  const unseen = new Set<string>();
  for (const dir of [...positionals, ...values.unseen]) {
    const corpus = path.basename(path.resolve(dir));
    if (byCorpus.has(corpus)) throw new Error(`two folders named ${corpus}: each corpus needs a name of its own`);
    byCorpus.set(corpus, await measureFolder(dir, runner));
    if (values.unseen.includes(dir)) unseen.add(corpus);
  }
  if (loaded) (await loaded).dispose();
  if (values['models-only']) return;

  const corpora = [...byCorpus.keys()];
  const fitted = corpora.filter((c) => !unseen.has(c));
  const all = fitted.flatMap((c) => byCorpus.get(c)!);
  console.log(`models ${values.models}, patches ${values.patches === '0' ? 'all' : values.patches}; ${corpora.map((c) => `${c} ${byCorpus.get(c)!.length}${unseen.has(c) ? ' (unseen)' : ''}`).join(', ')} clips\n`);

  const table = (title: string, rows: Array<{ label: string; rho: (a: (typeof AGREEMENTS)[number], corpus: string) => number }>, over = corpora): void => {
    console.log(title);
    console.log(`| descriptor | model counterpart | ${rows.flatMap((r) => over.map((c) => `${c} ${r.label}`)).join(' | ')} |`);
    console.log(`|---|---|${rows.flatMap(() => over.map(() => '---')).join('|')}|`);
    for (const a of AGREEMENTS) console.log(`| ${a.signal} | ${a.model} | ${rows.flatMap((r) => over.map((c) => fmt(r.rho(a, c)))).join(' | ')} |`);
    console.log('');
  };
  const rhoOf = (a: (typeof AGREEMENTS)[number], clips: readonly Clip[], compute: (i: DescriptorInputs) => ReturnType<typeof computeDescriptors>): number =>
    spearman(
      clips.map((c) => a.signalValue(compute(c.inputs))),
      clips.map((c) => a.modelValue(c.models)),
    );

  table('Spearman ρ, signal descriptor (formulas as shipped) vs model counterpart, per corpus', [
    { label: 'ρ', rho: (a, c) => rhoOf(a, byCorpus.get(c)!, computeDescriptors) },
  ]);

  const names = [...new Set(AGREEMENTS.map((a) => a.signal))];
  console.log('Medians per corpus, signal (formulas as shipped) / models');
  console.log(`| corpus | ${names.join(' | ')} |`);
  console.log(`|---|${names.map(() => '---').join('|')}|`);
  for (const c of corpora) {
    const clips = byCorpus.get(c)!;
    const cell = (n: string): string => {
      const a = AGREEMENTS.find((x) => x.signal === n)!;
      const sig = median(clips.map((x) => a.signalValue(computeDescriptors(x.inputs))));
      const mod = median(clips.map((x) => a.modelValue(x.models)));
      return `${fmt(sig)} / ${fmt(mod)}`;
    };
    console.log(`| ${c} | ${names.map(cell).join(' | ')} |`);
  }
  console.log('');

  // How far each model counterpart's answers spread within each corpus (the interquartile
  // range). Where a model gives every clip nearly the same answer (every rendered song calm,
  // every demo song danceable, no clip tagged acoustic), ρ orders differences of a few
  // hundredths; the counts below are also given over the cells where it spreads widely. (Narrow
  // is not unsteady: the table after this one says whether the model holds that order.)
  const spreadOf = (a: (typeof AGREEMENTS)[number], corpus: string): number => {
    const v = byCorpus.get(corpus)!.map((x) => a.modelValue(x.models));
    return percentile(v, 75) - percentile(v, 25);
  };
  table("The model counterpart's spread within each corpus: its interquartile range", [{ label: 'IQR', rho: spreadOf }]);

  // How far each side agrees with itself within each corpus: ρ between its answers on each
  // window's first and second half (two adjacent spans of about 15 s of the same song), projected
  // to windows twice as long (Spearman-Brown, 2ρ / (1 + ρ); the halves' own ρ is r / (2 - r);
  // – where the halves' ρ is negative).
  // Where a side's figure stays low, it ranks the corpus's songs by the part of them it hears more
  // than by the song; where both are high and their ρ against each other is not, the formula and
  // the model steadily measure different things.
  const selfAgreement = <H>(corpus: string, halvesOf: (x: Clip) => readonly H[] | undefined, value: (h: H) => number): number => {
    const pairs = byCorpus.get(corpus)!.flatMap((x) => {
      const h = halvesOf(x);
      return h?.length === 2 ? [[value(h[0]!), value(h[1]!)] as const] : [];
    });
    return pairs.length >= MIN_SPLIT ? spearmanBrown(spearman(pairs.map((p) => p[0]), pairs.map((p) => p[1]))) : NaN;
  };
  table("Each side against itself: ρ between each window's halves, projected to a whole window", [
    { label: 'models', rho: (a, c) => selfAgreement(c, (x) => x.models.halves, a.modelValue) },
    { label: 'formulas', rho: (a, c) => selfAgreement(c, (x) => x.signalHalves, (h) => a.signalValue(computeDescriptors(h))) },
  ]);

  // What the auto-tagger (its tags are recorded with every analysis the models make) says of each
  // corpus: how many clips have each tag as their most probable one, the five commonest.
  console.log("The tagger's most probable tag per clip: the five commonest per corpus (clips)");
  console.log('| corpus | tags |');
  console.log('|---|---|');
  for (const c of corpora) {
    const counts = new Map<string, number>();
    for (const x of byCorpus.get(c)!) {
      const top = tagScores(x.models.tags)[0]!.name;
      counts.set(top, (counts.get(top) ?? 0) + 1);
    }
    const commonest = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5);
    console.log(`| ${c} | ${commonest.map(([tag, n]) => `${tag} ${n}`).join(', ')} |`);
  }
  console.log('');

  if (fitted.length === 0) return;
  const inSample = calibrate(all);
  // The target's count, read unrounded (a cell the table shows as 0.60 may be under 0.6): every
  // fitted descriptor's cell (instrumentalness is designed, not fitted).
  const counted = AGREEMENTS.filter((a) => a.signal !== 'instrumentalness');
  const count = (label: string, over: readonly string[], rho: (a: (typeof AGREEMENTS)[number], corpus: string) => number): void => {
    const cells = counted.flatMap((a) => over.map((c) => rho(a, c)));
    const finite = cells.filter(Number.isFinite);
    const mean = finite.reduce((t, v) => t + v, 0) / finite.length;
    const wide = counted.flatMap((a) => over.filter((c) => spreadOf(a, c) >= WIDE).map((c) => rho(a, c)));
    console.log(`${label}: ρ ≥ 0.6 in ${cells.filter((v) => v >= 0.6).length} of ${cells.length} cells (unrounded), mean ${fmt(mean)}`);
    console.log(`${label}, where the model's answers spread (IQR ≥ ${WIDE}): ρ ≥ 0.6 in ${wide.filter((v) => v >= 0.6).length} of ${wide.length} cells\n`);
  };
  if (unseen.size > 0) {
    const rho = (a: (typeof AGREEMENTS)[number], c: string): number => rhoOf(a, byCorpus.get(c)!, inSample.compute);
    table(`Spearman ρ on the unseen corpora, the formulas fitted on ${fitted.join(', ')}`, [{ label: 'unseen', rho }], [...unseen]);
    count('unseen', [...unseen], rho);
  }
  if (fitted.length >= 2) {
    // Leave one corpus out: the formulas' coefficients fitted on the others, scored on it.
    const leftOut = new Map<string, (i: DescriptorInputs) => ReturnType<typeof computeDescriptors>>();
    for (const c of fitted) leftOut.set(c, calibrate(all.filter((x) => x.corpus !== c)).compute);
    table(
      'Spearman ρ after calibration: fitted on all corpora (in-sample) and on the other corpora (left out)',
      [
        { label: 'in-sample', rho: (a, c) => rhoOf(a, byCorpus.get(c)!, inSample.compute) },
        { label: 'left out', rho: (a, c) => rhoOf(a, byCorpus.get(c)!, leftOut.get(c)!) },
      ],
      fitted,
    );
    count('left out', fitted, (a, c) => rhoOf(a, byCorpus.get(c)!, leftOut.get(c)!));
  }
  if (values['within-corpus']) {
    // The fitted formulas' rows (valence is happy less sad, instrumentalness designed).
    const within = corpora.map((c) => withinCorpus(byCorpus.get(c)!));
    console.log("Spearman ρ within each corpus: each clip scored by its formula's design fitted on the corpus' other clips alone");
    console.log(`| descriptor | ${corpora.join(' | ')} |`);
    console.log(`|---|${corpora.map(() => '---').join('|')}|`);
    for (const n of Object.keys(within[0] ?? {}) as Array<keyof (typeof within)[number]>) console.log(`| ${n} | ${within.map((w) => fmt(w[n]!)).join(' | ')} |`);
    console.log('');
  }
  console.log(`coefficients fitted on all corpora (${fitted.join(', ')}):`);
  console.log(JSON.stringify(inSample.coefficients, null, 1));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
