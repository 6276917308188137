import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HAVE_TEST_MODELS, TEST_MODELS_DIR } from '../../measure/models/test-models';
import { LEVEL_FEATURES } from '../../src/engine/rhythm.level';
import { RATE, encodeWav, song } from '../../measure/audio/audio-signals';
import { Client } from 'pg';
import { POSTGRES_URL, dropSchema } from '../../measure/store/infra';
import { describeWith } from '../helpers/describe-with';
import { npmRun, ok, tempDir, userEnv } from './smoke.helpers';

/*
 * Every `bench:*` script with its smallest arguments, on a small corpus made here (songs of known
 * tempo and key, rendered in code, with a truth.json): each prints its table, and the test reads
 * the rows, not only the exit status. The four that make corpora from Debian's packages
 * (lmms/hydrogen, fretsonfire songs, sox, the games' soundtracks) run for real where those are
 * installed; where they are not, each must say what it needs and stop with status 2, which is
 * what a user then sees.
 */

jest.setTimeout(300_000);

let corpus: string;
let second: string;
let scratch: string;

/** Four songs per set (or the first `count`), `seconds` each, with their tempo, key and meter in truth.json. */
async function makeSet(dir: string, seed: number, seconds = 12, count = 4): Promise<void> {
  await mkdir(dir, { recursive: true });
  const songs = [
    { bpm: 100, tonic: 0, minor: false },
    { bpm: 128, tonic: 9, minor: true },
    { bpm: 92, tonic: 7, minor: false },
    { bpm: 140, tonic: 2, minor: true },
  ].slice(0, count);
  const truth = [];
  for (const [i, s] of songs.entries()) {
    const file = `song${String(i).padStart(2, '0')}.wav`;
    await writeFile(path.join(dir, file), encodeWav([song(seconds, { ...s, bright: i % 2 === 0, seed: seed + i })], RATE));
    truth.push({ file, bpm: s.bpm, tonic: s.tonic, modeBinary: s.minor ? 0 : 1, timeSignature: 4 });
  }
  await writeFile(path.join(dir, 'truth.json'), JSON.stringify(truth));
}

beforeAll(async () => {
  scratch = await tempDir('bench');
  corpus = path.join(scratch, 'set-a');
  second = path.join(scratch, 'set-b');
  await makeSet(corpus, 1);
  await makeSet(second, 11);
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

const env = () => userEnv({ LOG_LEVEL: 'warn' });

/** Whether the test database has a schema of this name. */
async function schemaExists(schema: string): Promise<boolean> {
  const c = new Client({ connectionString: POSTGRES_URL });
  await c.connect();
  try {
    return (await c.query('select 1 from information_schema.schemata where schema_name = $1', [schema])).rowCount === 1;
  } finally {
    await c.end();
  }
}


function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

it('bench:accuracy reads the set with the engine and prints its tempo, key and meter row, the QM key detector\'s, the key confidence\'s reliability and the descriptor medians', async () => {
  const ran = await npmRun('bench:accuracy', [corpus, '--no-peer'], env(), 240_000);
  const out = ok(ran);
  expect(out).toMatch(/set-a: 4 clips \(4 with tempo, 4 with key, 4 with meter\)/);
  // The engine's row: tempo Acc1 and Acc2, key, MIREX, mode, meter, grid, CPU ms.
  expect(out).toMatch(/^trackgraph-engine\/\d+\s+[\d.]+\s+[\d.]+ .*\d+$/m);
  expect(out).toMatch(/^all\s+4\s+([\d.]+\s+){10}$/m);
  // Where Debian's libqm-dsp-dev is (CI installs it), the QM detector's key row; else it says why not.
  if (existsSync('/usr/include/qm-dsp/dsp/keydetection/GetKeyMode.h')) {
    expect(out).toMatch(/^QM key detector\s+-\s+-\s+none\s+[\d.]+\s+[\d.]+\s+[\d.]+/m);
  } else {
    expect(ran.stderr).toContain('QM key detector left out: libqm-dsp-dev is not installed');
  }
  // Every band of the key confidence and of the tempo confidence, each table's clips summing to the set's four.
  for (const title of ['key confidence', 'tempo confidence']) {
    const table = out.slice(out.indexOf(`\n${title}`) + 1).split('\n\n')[0]!;
    const bands = [...table.matchAll(/^\d\.\d\d–[\d.]+\s+(\d+)\s+\d+ \(/gm)].map((m) => Number(m[1]));
    expect(bands).toHaveLength(5);
    expect(bands.reduce((a, b) => a + b, 0)).toBe(4);
    expect(table).toMatch(/^at ≥ 0\.7: \d of 4 clips \((\d+ %|-)\), (\d+ %|-) right$/m);
  }
});

it('bench:key-profiles fits the key model on the sets, scores each shipped, refitted and left out, judges whole files it never fits on, calibrates the confidence and writes the weights where asked', async () => {
  const weights = path.join(scratch, 'key.weights.json');
  // Two songs longer than the analysis window (45 s): judged only, the key read over the whole file.
  const whole = path.join(scratch, 'set-whole');
  await makeSet(whole, 1, 50, 2);
  const out = ok(await npmRun('bench:key-profiles', [corpus, second, whole, '--judge', 'set-whole=set-a', '--write', weights], env(), 240_000));
  for (const set of ['set-a', 'set-b']) expect(out).toMatch(new RegExp(`^${set}\\s+4\\s+1\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+ %$`, 'm'));
  expect(out).toMatch(/^set-whole\s+2\s+1\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+ % {3}\(judged only, the whole file; left out: fitted without set-a\)$/m);
  expect(out).toMatch(/^refitted weights: chroma (-?[\d.]+ ){2}-?[\d.]+; bass (-?[\d.]+ ){2}-?[\d.]+; minor -?[\d.]+$/m);
  // The reliability table of the left-out confidences: five bands holding the eight clips.
  const bands = [...out.matchAll(/^\d\.\d\d–[\d.]+\s+(\d+)\s+/gm)].map((m) => Number(m[1]));
  expect(bands).toHaveLength(5);
  expect(bands.reduce((a, b) => a + b, 0)).toBe(8);
  const written = JSON.parse(await readFile(weights, 'utf8')) as { chroma: number[]; bass: number[]; minor: number; calibration: Record<string, number>; fittedOn: string };
  expect(written.chroma).toHaveLength(3);
  expect(written.bass).toHaveLength(3);
  expect(Number.isFinite(written.minor)).toBe(true);
  expect(Object.keys(written.calibration).sort()).toEqual(['bias', 'logit', 'margin', 'relative', 'strength']);
  expect(written.fittedOn).toBe('set-a 4, set-b 4');
  // The shipped file is never touched by a run that names another.
  const shipped = JSON.parse(await readFile(path.resolve(__dirname, '../../src/engine/key.weights.json'), 'utf8')) as { fittedOn: string };
  expect(shipped.fittedOn).not.toBe('set-a 4, set-b 4');
});

it('bench:tempo-levels gives each set its level accuracy, fitted and held out, the refitted weights, the tempo confidence\'s left-out reliability, and writes its calibration where asked', async () => {
  const calibration = path.join(scratch, 'tempo.calibration.json');
  const out = ok(await npmRun('bench:tempo-levels', [corpus, second, '--write', calibration], env(), 240_000));
  expect(out).toMatch(/^set-a\s+4\s+\d+\s+\d+\s+\d+\s+\d+$/m);
  // One weight per evidence of the level choice.
  expect(out).toMatch(new RegExp(`^refitted weights: \\[(-?[\\d.]+, ){${LEVEL_FEATURES.length - 1}}-?[\\d.]+\\]$`, 'm'));
  // The reliability table of the left-out confidences: five bands holding the eight clips.
  const table = out.slice(out.indexOf('\ntempo confidence, left out')).split('\n\n')[0]!;
  const bands = [...table.matchAll(/^\d\.\d\d–[\d.]+\s+(\d+)\s+/gm)].map((m) => Number(m[1]));
  expect(bands).toHaveLength(5);
  expect(bands.reduce((a, b) => a + b, 0)).toBe(8);
  expect(table).toMatch(/^at ≥ 0\.7: \d of 8 clips \((\d+ %|-)\), (\d+ %|-) right$/m);
  const written = JSON.parse(await readFile(calibration, 'utf8')) as { fittedOn: string; bias: number; weights: Record<string, number> };
  expect(written.fittedOn).toBe('set-a 4, set-b 4');
  expect(Number.isFinite(written.bias)).toBe(true);
  expect(Object.keys(written.weights).sort()).toEqual(['distance', 'logit', 'margin']);
  // The shipped file is never touched by a run that names another.
  const shipped = JSON.parse(await readFile(path.resolve(__dirname, '../../src/engine/tempo.calibration.json'), 'utf8')) as { fittedOn: string };
  expect(shipped.fittedOn).not.toBe('set-a 4, set-b 4');
});

it('bench:tempo-levels --by-genre holds a set out genre by genre, and --weight counts a set more', async () => {
  const genres = path.join(scratch, 'set-g');
  await cp(corpus, genres, { recursive: true });
  const truth = JSON.parse(await readFile(path.join(genres, 'truth.json'), 'utf8')) as { file: string }[];
  await writeFile(path.join(genres, 'truth.json'), JSON.stringify(truth.map((row, i) => ({ ...row, genre: i < 2 ? 'first' : 'second' }))));
  const out = ok(await npmRun('bench:tempo-levels', [second, genres, '--by-genre', 'set-g', '--weight', 'set-g=2'], env(), 240_000));
  expect(out).toMatch(/^set-g\s+4\s+\d+\s+\d+\s+\d+\s+\d+$/m);
  expect(out).toMatch(/^\s+held out by genre: first [0-2]\/2, second [0-2]\/2$/m);
  const refused = await npmRun('bench:tempo-levels', [second, '--weight', 'set-b=0'], env(), 60_000);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('--weight set-b=0: expected <set>=<positive number>');
});

it('bench:analysis times the engine per clip on 1 and 2 workers', async () => {
  const files = (await readdir(corpus)).filter((f) => f.endsWith('.wav')).map((f) => path.join(corpus, f));
  const out = ok(await npmRun('bench:analysis', ['--clips', '2', ...files.slice(0, 2)], env(), 240_000));
  expect(out).toMatch(/^1 worker : [\d.]+ clips\/s, median \d+ ms per clip/m);
  expect(out).toMatch(/^2 workers: [\d.]+ clips\/s, speed-up [\d.]+x/m);
  // essentia.js's pipeline is timed beside the models' stages, so without them there is nothing to time it beside.
  const alone = await npmRun('bench:analysis', ['--essentia', files[0]!], env(), 120_000);
  expect(alone.code).toBe(2);
  expect(alone.stderr).toContain('usage: --essentia times essentia.js beside the models stage by stage: give it with --stages --models DIR');
});

it('bench:browse times every browse query on a small synthetic store through the browse index: its load and weight, then each page a scan of it', async () => {
  const out = ok(await npmRun('bench:browse', ['--rows', '2000', '--iterations', '10', '--only', 'sqlite'], env(), 240_000));
  expect(out).toMatch(/^browse index: 2000 analyses loaded in [\d.]+ s \([\d.]+ s of this process's CPU\), holding \d+ MiB \(\d+ bytes an analysis\)$/m);
  expect(out).toMatch(/^a tag's first use \("rock"\): read in [\d.]+ s/m);
  expect(out).toMatch(/^\| two tags never together \(rock ≥ 0\.35, jazz ≥ 0\.35; by tempo asc: an empty answer\) \| [\d.]+ \| .*browse index \(memory\): a scan of 2000 analyses, 0 kept/m);
  // Text filters are the database's.
  expect(out).toMatch(/^\| artist text \(contains "artist 4N"; by energy desc\) \| [\d.]+ \| .*SCAN analyses USING INDEX analyses_by_energy/m);
  expect(out).toMatch(/^\| similar\(first: 10\) \| [\d.]+ \| .*from the browse index/m);
  expect(out).toMatch(/^worst tracks\(\) p99: [\d.]+ ms/m);
});

it('bench:browse --no-index times the database\'s statements alone, with their plans', async () => {
  const out = ok(await npmRun('bench:browse', ['--rows', '2000', '--iterations', '10', '--only', 'sqlite', '--no-index'], env(), 240_000));
  expect(out).not.toMatch(/browse index/);
  expect(out).toMatch(/^\| happiest \(order by mood\.happy desc\) \| [\d.]+ \| [\d.]+ \|/m);
  // The tag cases read the tags' indexes.
  expect(out).toMatch(/^\| a tag among the top 3 \(punk; newest first\) \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| .*analysis_tags_by_rank/m);
  expect(out).toMatch(/^\| two tags never together \(rock ≥ 0\.35, jazz ≥ 0\.35; by tempo asc: an empty answer\) \| [\d.]+ \| .*analysis_tags_by_tag/m);
  // Ordered by a tag: its index walked in order, each analysis read by seq.
  expect(out).toMatch(/^\| the most rock- or jazz-like \(order by the tag desc\) \| [\d.]+ \| .*SEARCH w USING COVERING INDEX analysis_tags_by_tag \(tag=\?\); SEARCH analyses USING INDEX analyses_seq/m);
  expect(out).toMatch(/^worst tracks\(\) p99: [\d.]+ ms/m);
});

it('bench:http gives each route\'s ratio to node:http giving the same answer, to node:http with the body alone and to bare Express, and the servers\' CPU per request, at warn and info, and memory after a GC', async () => {
  const args = ['--duration', '1', '--rounds', '1', '--connections', '4', '--memory-requests', '200', '--no-check'];
  const out = ok(await npmRun('bench:http', args, env(), 240_000));
  const targeted = ['REST GET /api/audio/analysis/:key', 'GraphQL analysis(trackKey)'];
  for (const level of ['warn', 'info']) {
    const section = out.slice(out.indexOf(`LOG_LEVEL=${level}`));
    expect(section).toContain('| route | req/s | node:http req/s | ratio | ratio to node:http, body alone | Express req/s | ratio to Express |');
    for (const route of [...targeted, 'GraphQL analysis(trackKey), past the edge cache', 'REST search, from the cache', 'REST batch of 50 keys', 'GraphQL browse page (tracks, 20)']) {
      const escaped = route.replace(/[()/:.,]/g, '\\$&');
      // Targeted reads: the body-alone ratio and their target's verdict; the others neither.
      const [bodyRatio, verdict] = targeted.includes(route) ? ['[\\d.]+', "≥ [\\d.]+x, p99 ≤ node:http's \\+ 2 ms: (held|missed)"] : ['—', '—'];
      expect(section).toMatch(new RegExp(`^\\| ${escaped} \\| \\d+ \\| \\d+ \\| [\\d.]+ \\| ${bodyRatio} \\| \\d+ \\| [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ \\| \\d+ \\| \\d+ \\| 0 \\| 0 \\| ${verdict} \\|$`, 'm'));
    }
    expect(section).toMatch(/^memory after a GC, before\/after 200 more requests: heap [\d.]+ → [\d.]+ MB, RSS [\d.]+ → [\d.]+ MB$/m);
  }
});

it('bench:load finds the embedded server\'s sustainable rate without errors', async () => {
  const args = ['--duration', '2', '--probe', '1', '--connections', '2', '--max-connections', '4', '--only', 'embedded'];
  const out = ok(await npmRun('bench:load', args, env(), 240_000));
  expect(out).toMatch(/^\| embedded: 1 API process, SQLite \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \| 0 \| 0 \| 0 \|$/m);
});

it('bench:graphql-limits probes /healthz while clients send ordinary and hostile documents, which are refused', async () => {
  const out = ok(await npmRun('bench:graphql-limits', ['--reps', '2', '--http', '1', '--clients', '2'], env(), 280_000));
  expect(out).toMatch(/^\| after \| idle \| \d+ \|/m);
  // Durations print in µs under 1 ms (a fast machine's median), in s from 1 s, ms between.
  expect(out).toMatch(/attack documents \| \d+ \| [\d.]+ (?:µs|ms|s) \| [\d.]+ (?:µs|ms|s) \| [\d.]+ (?:µs|ms|s) \| \d+ × 400 \|$/m);
});

it('bench:webhooks measures delivery latency from completed analyses to a local receiver', async () => {
  const out = ok(await npmRun('bench:webhooks', ['--analyses', '6', '--concurrency', '2'], env(), 240_000));
  const rows = [...out.matchAll(/^\| (one at a time|2 at once) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$/gm)];
  expect(rows).toHaveLength(2);
  // Every analysis asked for was announced to the receiver.
  for (const row of rows) expect(Number(row[2])).toBe(6);
});

it('bench:uploads reports memory over mutated uploads, upload-to-analysis latency embedded and scaled out, and read throughput with and without uploads', async () => {
  const out = ok(await npmRun('bench:uploads', ['--uploads', '8', '--runs', '1', '--duration', '1', '--connections', '2', '--scaled'], env(), 240_000));
  expect(out).toMatch(/^memory after a GC, before\/after 8 uploads: heap [\d.]+ → [\d.]+ MB, RSS [\d.]+ → [\d.]+ MB$/m);
  // Every one of the 8 answered, none with a 5xx.
  const answers = /^answers: (.+)$/m.exec(out)![1]!;
  const counts = [...answers.matchAll(/(\d{3}) ×(\d+)/g)];
  expect(counts.reduce((n, m) => n + Number(m[2]), 0)).toBe(8);
  expect(counts.every((m) => Number(m[1]) < 500)).toBe(true);
  // Each latency row twice: embedded, then scaled out (an API process and a worker on Postgres and Redis).
  for (const row of ['30 s clip, WAV', '30 s clip, FLAC', '5 min FLAC']) expect(out.match(new RegExp(`^\\| ${row} \\| \\d+ \\| \\d+ \\|$`, 'gm'))).toHaveLength(2);
  expect(out).toMatch(/^scaled: an API process and a worker process on Postgres and Redis, UPLOAD_DIR shared; load average [\d.]+$/m);
  expect(out).toMatch(/^\| alone \| \d+ \| \d+ \| 0 \|$/m);
  expect(out).toMatch(/^\| while 30 s clips are uploaded \(\d+ in 1 s\) \| \d+ \| \d+ \| 0 \|$/m);
});

const modelsDir = TEST_MODELS_DIR;
const withModels = HAVE_TEST_MODELS ? it : it.skip;
if (!HAVE_TEST_MODELS) console.warn(`bench:models smoke SKIPPED: no models at ${modelsDir} (TRACKGRAPH_TEST_MODELS_DIR)`);

withModels('bench:models compares the models fed by our input with essentia.js\'s over every patch count and the factorised models with the models as trained, and bench:analysis times them', async () => {
  const out = ok(await npmRun('bench:models', ['--models', modelsDir, '--limit', '1', '--no-check', corpus], env(), 280_000));
  // The model path's CPU a clip beside the models as trained on the same runtime, and the target's verdict.
  const cpu = /^\| rank \d+ \(the engine's\) \| (\d+) \| ([\d.]+) /m.exec(out);
  const asTrained = /^\| as trained, same runtime \| (\d+) \|/m.exec(out);
  expect(cpu).not.toBeNull();
  expect(asTrained).not.toBeNull();
  // The factorised models do less work than the models as trained.
  expect(Number(cpu![1])).toBeLessThan(Number(asTrained![1]));
  expect(out).toMatch(/^target: ≤ 2000 ms of CPU a clip with every descriptor within 0\.02 of the reference: (held|missed)$/m);
  expect(out).toMatch(/^\| set-a \(calibration\) \| 1 \| all \| ([\d.]+ \| )+/m);
  // The factorisation's own part, against the models as trained on the same frames.
  expect(out).toMatch(/^\| set-a \| 1 \| [\d.]+ \| [\d.]+ \|$/m);
  const files = (await readdir(corpus)).filter((f) => f.endsWith('.wav')).map((f) => path.join(corpus, f));
  const timed = ok(await npmRun('bench:analysis', ['--models', modelsDir, '--clips', '1', '--workers', '1', files[0]!], env(), 280_000));
  expect(timed).toMatch(/^1 worker : [\d.]+ clips\/s/m);
  // The known tool's row: essentia.js's own pipeline, clip by clip beside the engine's model path.
  const beside = ok(await npmRun('bench:analysis', ['--stages', '--essentia', '--models', modelsDir, '--clips', '2', '--workers', '1', ...files.slice(0, 2)], env(), 280_000));
  expect(beside).toMatch(/^ {2}essentia\.js: 5 classifiers as trained, demo layout +first +\d+ +median +\d+ CPU/m);
  // Every stage of the signal path has its row, the sound embedding's bag of frames among them.
  expect(beside).toMatch(/^ {4}sound embedding's bag of frames \(cepstral frames, supervector\) +first +\d+ +median +\d+ CPU/m);
  const shares = /^the model descriptors' CPU as a share of essentia\.js's.*: ([\d.]+) of its 5 classifiers, ([\d.]+) of its frames \+ 5 classifiers, ([\d.]+) of its frames \+ the same 6 models$/m.exec(beside);
  expect(shares).not.toBeNull();
  const [classifiers, five, six] = shares!.slice(1).map(Number) as [number, number, number];
  // Each share's denominator holds the one before's: the shares can only fall along the line.
  expect(classifiers).toBeGreaterThan(0);
  expect(five).toBeLessThanOrEqual(classifiers);
  expect(six).toBeLessThanOrEqual(five);
  // What it times computes what the engine computes: within the models' tolerance over the same patches.
  const apart = /^the same clips' 5 classifiers, largest \|engine \(MODELS_PATCHES=0\) − essentia\.js\| over the clips: ([\d.]+) over the whole patches the engine reads, ([\d.]+) over the demo's every patch/m.exec(beside);
  expect(apart).not.toBeNull();
  expect(Number(apart![1])).toBeLessThanOrEqual(0.05);
});

withModels('bench:descriptors holds the signal descriptors to the models per corpus, fits them leaving each corpus out, scores a corpus it never fits on, and reads its cache back', async () => {
  const cache = path.join(scratch, 'descriptor-cache');
  const args = ['--models', modelsDir, '--patches', '1', '--limit', '3', '--cache', cache, corpus, second];
  const out = ok(await npmRun('bench:descriptors', args, env(), 280_000));
  expect(out).toMatch(/^\| descriptor \| model counterpart \| set-a ρ \| set-b ρ \|$/m);
  expect(out).toMatch(/^\| relaxed \| mood_relaxed \| (-?[\d.]+|–) \| (-?[\d.]+|–) \|$/m);
  expect(out).toMatch(/set-a left out \| set-b left out \|$/m);
  // The target's count over the fitted descriptors' cells (9 per corpus), read unrounded.
  expect(out).toMatch(/^left out: ρ ≥ 0\.6 in \d+ of 18 cells \(unrounded\), mean (-?[\d.]+|–)$/m);
  // The models' own spread per cell, and the count again over the cells where it is wide.
  expect(out).toMatch(/^The model counterpart's spread within each corpus: its interquartile range\n\| descriptor \| model counterpart \| set-a IQR \| set-b IQR \|$/m);
  expect(out).toMatch(/^\| sad \| mood_sad \| [\d.]+ \| [\d.]+ \|$/m);
  const wide = /^left out, where the model's answers spread \(IQR ≥ 0\.1\): ρ ≥ 0\.6 in (\d+) of (\d+) cells$/m.exec(out);
  expect(wide).not.toBeNull();
  expect(Number(wide![1])).toBeLessThanOrEqual(Number(wide![2]));
  expect(Number(wide![2])).toBeLessThanOrEqual(18);
  // The tagger's most probable tag per clip: 3 clips per corpus, so the counts of a row sum to 3.
  const tagRows = /^The tagger's most probable tag per clip: the five commonest per corpus \(clips\)\n\| corpus \| tags \|\n\|---\|---\|\n\| set-a \| (.+) \|\n\| set-b \| (.+) \|$/m.exec(out);
  expect(tagRows).not.toBeNull();
  for (const row of [tagRows![1]!, tagRows![2]!]) expect(row.split(', ').reduce((n, cell) => n + Number(/^.+ (\d+)$/.exec(cell)![1]), 0)).toBe(3);
  expect(await readdir(cache)).toEqual(['set-a.json', 'set-b.json']);
  // Each side against itself between each window's halves: the formulas' inputs are measured on
  // both halves of every clip; the models' halves only when they read every patch (here one), and
  // three clips are too few for a figure.
  expect(out).toMatch(/^Each side against itself: ρ between each window's halves, projected to a whole window\n\| descriptor \| model counterpart \| set-a models \| set-b models \| set-a formulas \| set-b formulas \|$/m);
  expect(out).toMatch(/^\| sad \| mood_sad \| – \| – \| – \| – \|$/m);
  const cached = JSON.parse(await readFile(path.join(cache, 'set-a.json'), 'utf8')) as { clips: Record<string, { signal: { halves?: unknown[] }; models: { halves?: unknown } }> };
  for (const clip of Object.values(cached.clips)) {
    expect(clip.signal.halves).toHaveLength(2);
    expect(clip.models.halves).toBeUndefined();
  }
  // The second run reads the models' outputs back: it prints the same tables without running them.
  const again = ok(await npmRun('bench:descriptors', args, env(), 120_000));
  expect(again).toBe(out);
  // A corpus scored but never fitted on: its own table, and no left-out column of its own.
  const unseen = ok(await npmRun('bench:descriptors', ['--models', modelsDir, '--patches', '1', '--limit', '3', '--cache', cache, corpus, '--unseen', second], env(), 120_000));
  expect(unseen).toMatch(/^models .*; set-a 3, set-b 3 \(unseen\) clips$/m);
  expect(unseen).toMatch(/^Spearman ρ on the unseen corpora, the formulas fitted on set-a$/m);
  expect(unseen).toMatch(/^\| relaxed \| mood_relaxed \| (-?[\d.]+|–) \|$/m);
  expect(unseen).not.toContain('left out');
  expect(unseen).toMatch(/^unseen: ρ ≥ 0\.6 in \d+ of 9 cells \(unrounded\), mean (-?[\d.]+|–)$/m);
  expect(unseen).toMatch(/^unseen, where the model's answers spread \(IQR ≥ 0\.1\): ρ ≥ 0\.6 in \d+ of \d+ cells$/m);
  expect(unseen).toMatch(/^coefficients fitted on all corpora \(set-a\):$/m);
  // Each fitted design within each corpus, from the cache: the fitted descriptors' rows only.
  const within = ok(await npmRun('bench:descriptors', [...args, '--within-corpus'], env(), 120_000));
  const title = within.indexOf("Spearman ρ within each corpus: each clip scored by its formula's design fitted on the corpus' other clips alone\n| descriptor | set-a | set-b |\n");
  expect(title).toBeGreaterThan(0);
  const rows = within.slice(title).split('\n').slice(3).filter((l) => l.startsWith('| '));
  expect(rows.map((l) => l.split(' | ')[0])).toEqual(['| energy', '| danceability', '| arousal', '| happy', '| sad', '| relaxed', '| aggressive', '| acousticness']);
  for (const l of rows) expect(l).toMatch(/^\| \w+ \| (-?[\d.]+|–) \| (-?[\d.]+|–) \|$/);
  expect(within.replace(within.slice(title, title + within.slice(title).indexOf('\n\n') + 2), '')).toBe(out);
});

const withSox = installed('sox') ? it : it.skip;
withSox('bench:tempo-scaled writes each clip at its scaled tempo with its scaled truth (sox)', async () => {
  const out = path.join(scratch, 'scaled');
  const printed = ok(await npmRun('bench:tempo-scaled', [corpus, out, '--factors', '100=1.2;128=0.75'], env(), 240_000));
  expect(printed).toMatch(/^song00\.wav 100 x 1\.2 = 120 BPM$/m);
  expect(printed).toMatch(/^wrote 2 clips and truth\.json to /m);
});

it('bench:tempo-scaled, bench:demo-songs, bench:band-songs and bench:game-music without their arguments (or Debian packages) say what they need and stop', async () => {
  const scaled = await npmRun('bench:tempo-scaled', [], env(), 120_000);
  expect(scaled.code).toBe(2);
  expect(scaled.stderr).toMatch(/^usage: npm run bench:tempo-scaled -- <dir> <out dir> --factors .*\(needs sox\)$/m);
  const demo = await npmRun('bench:demo-songs', [], env(), 120_000);
  expect(demo.code).toBe(2);
  expect(demo.stderr).toContain('needs: apt-get install lmms hydrogen');
  if (!installed('lmms') && !installed('h2cli')) {
    const none = await npmRun('bench:demo-songs', [path.join(scratch, 'demo')], env(), 120_000);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no demo songs found: apt-get install lmms hydrogen');
  }
  const band = await npmRun('bench:band-songs', [path.join(scratch, 'band')], env(), 120_000);
  if (band.code === 2) expect(band.stderr).toContain('needs fretsonfire-songs-* and sox');
  else {
    expect(ok(band)).toMatch(/^wrote \d+ clips and truth\.json to /m);
    const whole = ok(await npmRun('bench:band-songs', [path.join(scratch, 'band-whole'), '--whole'], env(), 600_000));
    expect(whole).toMatch(/^[a-z]+-[a-z0-9_]+\.mp3 [a-z]+\/[a-z0-9_]+ [\d.]+ BPM, whole \(\d+\.\d s\)$/m);
    expect(whole).toMatch(/^wrote \d+ songs and truth\.json to /m);
  }
  const games = await npmRun('bench:game-music', [], env(), 120_000);
  expect(games.code).toBe(2);
  expect(games.stderr).toMatch(/^usage: npm run bench:game-music -- <out dir> \(needs: apt-get install wesnoth-1\.16-music .*lincity-ng-data .*freedroidrpg-data .*singularity-music\)$/m);
}, 600_000);

const GAME_MUSIC = ['/usr/share/games/wesnoth/1.16/data/core/music', '/usr/share/games/hedgewars/Data/Music'];
const withGameMusic = GAME_MUSIC.some(existsSync) ? it : it.skip;
withGameMusic('bench:game-music copies the installed games\' soundtracks into four corpora, each track keeping its time', async () => {
  const out = path.join(scratch, 'game-music');
  const printed = ok(await npmRun('bench:game-music', [out], env(), 240_000));
  expect(printed).toMatch(/^wrote (scores|games|arcade|adventure): \d+ tracks/m);
  for (const corpus of ['scores', 'games', 'arcade', 'adventure']) {
    if (!existsSync(path.join(out, corpus))) continue;
    const files = await readdir(path.join(out, corpus));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(f).toMatch(/^(wesnoth|warzone|hedgewars|etr|frozenbubble|lincity|supertux|neverball|xmoto|freedroid|hyperrogue|blupi|drascula|singularity)-[^ ]+\.(ogg|opus)$/i);
  }
  // Made again, the copies keep the installed files' times, so the descriptor cache stays valid.
  const first = await readdir(path.join(out, 'games')).catch(() => [] as string[]);
  if (first.length > 0) {
    const file = path.join(out, 'games', first[0]!);
    const before = statSync(file).mtimeMs;
    ok(await npmRun('bench:game-music', [out], env(), 240_000));
    expect(statSync(file).mtimeMs).toBe(before);
    expect(Date.now() - before).toBeGreaterThan(24 * 3600 * 1000);
  }
  await rm(out, { recursive: true, force: true });
});

/**
 * A dataset laid out as the 4Q dataset is (annotations and Q1..Q4/<id>.mp3), six songs a
 * quadrant rendered here (WAV bytes: the decoder reads the content, not the name): energetic
 * quadrants fast and bright, positive ones major. Four a quadrant are listed to fit on.
 */
async function makeFourQuadrants(dir: string): Promise<{ dataset: string; fit: string }> {
  const rows = ['Song,Quadrant'];
  const fit: string[] = [];
  for (const [q, quadrant] of ['Q1', 'Q2', 'Q3', 'Q4'].entries()) {
    await mkdir(path.join(dir, quadrant), { recursive: true });
    for (let i = 0; i < 6; i++) {
      const id = `MT${String(q * 10 + i).padStart(10, '0')}`;
      const energetic = q < 2;
      const audio = song(8, { bpm: energetic ? 140 : 80, tonic: i, minor: q === 1 || q === 2, bright: energetic, drums: energetic, seed: 40 + q * 6 + i });
      await writeFile(path.join(dir, quadrant, `${id}.mp3`), encodeWav([audio], RATE));
      rows.push(`${id},${quadrant}`);
      if (i < 4) fit.push(id);
    }
  }
  await writeFile(path.join(dir, 'panda_dataset_taffc_annotations.csv'), `${rows.join('\r\n')}\r\n`);
  // The metadata bench:similarity reads: two songs an artist, the energetic quadrants' genre "Pop/Rock", the calm ones' "Jazz; Vocal".
  const meta = rows.slice(1).map((r, i) => {
    const [id, quadrant] = r.split(',');
    return `"${id}","Band ${Math.floor(i / 2)}","Title ${i}","${quadrant}",1,1,1,"","","",1,"${quadrant === 'Q1' || quadrant === 'Q2' ? 'Pop/Rock' : 'Jazz; Vocal'}",1,""`;
  });
  await writeFile(path.join(dir, 'panda_dataset_taffc_metadata.csv'), `"Song","Artist","Title","Quadrant","PQuad","MoodsTotal","Moods","MoodsFoundStr","MoodsStr","MoodsStrSplit","Genres","GenresStr","Sample","SampleURL"\r\n${meta.join('\r\n')}\r\n`);
  await writeFile(path.join(dir, 'fit.txt'), `${fit.join('\n')}\n`);
  return { dataset: dir, fit: path.join(dir, 'fit.txt') };
}

it('bench:moods scores each descriptor per quadrant split on the fit and the held-back songs, valence left out, and the penalty scan', async () => {
  const { dataset, fit } = await makeFourQuadrants(path.join(scratch, '4q'));
  const cache = path.join(scratch, 'moods-cache');
  // The signal path alone: no models, whatever the environment holds.
  const signalOnly = userEnv({ LOG_LEVEL: 'warn', TRACKGRAPH_TEST_MODELS_DIR: '' });
  const out = ok(await npmRun('bench:moods', ['--dataset', dataset, '--fit', fit, '--judge', '--cache', cache], signalOnly, 240_000));
  expect(out).toContain('4Q dataset: fit songs 16 (Q1 4, Q2 4, Q3 4, Q4 4); held back 8 (Q1 2, Q2 2, Q3 2, Q4 2); paths: signal');
  const cell = String.raw`(?:[\d.]+|–)`;
  for (const [descriptor, split] of [['arousal', 'Q1+Q2 vs Q3+Q4'], ['mood.sad', 'Q3 vs rest'], ['valence', 'Q1+Q4 vs Q2+Q3'], ['valence, calm songs', 'Q4 vs Q3']] as const) {
    expect(out).toMatch(new RegExp(String.raw`^\| ${descriptor.replace(/[.+]/g, '\\$&')} \| ${split.replace(/\+/g, '\\+')} \| ${cell} \| ${cell} \|$`, 'm'));
  }
  // These songs' arousal is their tempo and brightness: the split is made.
  expect(Number(/^\| arousal \| Q1\+Q2 vs Q3\+Q4 \| ([\d.]+) \|/m.exec(out)![1])).toBeGreaterThan(0.8);
  expect(out).toMatch(/^\| valence, energetic songs: Q1 vs Q2 \| [\d.]+ \|$/m);
  expect(out).toMatch(/^\| 200 \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \|$/m);
  // The cache answers the second run: nothing is decoded again.
  const again = await npmRun('bench:moods', ['--dataset', dataset, '--fit', fit, '--cache', cache], signalOnly, 120_000);
  expect(ok(again)).toContain('fit songs 16');
  // A fit list naming songs the dataset lacks is refused, saying which.
  await writeFile(path.join(scratch, 'bad-fit.txt'), 'MT9999999999\n');
  const bad = await npmRun('bench:moods', ['--dataset', dataset, '--fit', path.join(scratch, 'bad-fit.txt')], signalOnly, 60_000);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('1 ids the dataset lacks (MT9999999999');
});

withModels('bench:moods --write fits both valence models and writes the weights file the engine reads, with the docs\' tables', async () => {
  const { dataset, fit } = await makeFourQuadrants(path.join(scratch, '4q-models'));
  const weights = path.join(scratch, 'valence.weights.json');
  const out = ok(await npmRun('bench:moods', ['--dataset', dataset, '--fit', fit, '--models', modelsDir, '--write', '--weights', weights, '--cache', path.join(scratch, 'moods-models')], env(), 280_000));
  expect(out).toContain('paths: signal, models');
  expect(out).toMatch(/^\| mood\.happy \| Q1 vs rest \| [\d.]+ \| [\d.]+ \|$/m);
  const written = JSON.parse(await readFile(weights, 'utf8')) as { signal: { weights: Record<string, number> }; models: { weights: Record<string, number> } };
  const shipped = JSON.parse(await readFile(path.resolve(__dirname, '../../src/engine/valence.weights.json'), 'utf8')) as typeof written;
  expect(Object.keys(written.signal.weights).sort()).toEqual(Object.keys(shipped.signal.weights).sort());
  expect(Object.keys(written.models.weights).sort()).toEqual(Object.keys(shipped.models.weights).sort());
  expect(out).toContain('| `tag:happy` |');
});

it('bench:similarity judges the signal path\'s sound embedding on the fit songs, in-sample and with the artists left out, its statistics alone and with the frames\' supervector, and writes the weights where asked', async () => {
  const dir = path.join(scratch, '4q-similarity');
  const { dataset, fit } = await makeFourQuadrants(dir);
  const weights = path.join(scratch, 'sound.weights.json');
  const signalOnly = userEnv({ LOG_LEVEL: 'warn', TRACKGRAPH_TEST_MODELS_DIR: '' });
  const out = ok(await npmRun('bench:similarity', ['--dataset', dataset, '--fit', fit, '--cache', path.join(scratch, 'similarity-cache'), '--seeds', '1', '--write', '--weights', weights], signalOnly, 240_000));
  expect(out).toContain('16 songs, 8 artists (16 songs whose artist has another), 2 genres');
  expect(out).toMatch(/^chance\s+0\.467\s+0\.200$/m);
  expect(out).toContain("no models: the anchor and the models' embedding are left out");
  for (const name of ["the statistics' blocks alone, left out \\(artists in 5 folds, 1 shuffles\\)", 'signal/3 \\(engine 28\\), left out \\(artists in 5 folds, 1 shuffles\\)', 'signal/4, in-sample', 'signal/4, left out \\(artists in 5 folds, 1 shuffles\\)']) {
    expect(out).toMatch(new RegExp(`^${name}\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+$`, 'm'));
  }
  // Energetic and calm songs are two genres here: in-sample, the ten nearest mostly share the song's.
  const genre = Number(new RegExp('^signal/4, in-sample\\s+[\\d.]+\\s+([\\d.]+)', 'm').exec(out)![1]);
  expect(genre).toBeGreaterThan(0.6);
  const written = JSON.parse(await readFile(weights, 'utf8')) as { signal: { mean: number[]; blocks: { offset: number[] }[]; frames: { gmm: { weights: number[]; means: number[] }; relevance: number; block: { offset: number[] }; discriminant: { offset: number[]; weight: number } } }; models?: unknown; features: string[] };
  expect(written.features).toHaveLength(255);
  expect(written.signal.mean).toHaveLength(255);
  // Each song's genres: Pop/Rock, or Jazz and Vocal: three genres, two discriminant directions.
  expect(written.signal.blocks.map((b) => b.offset.length)).toEqual([64, 2]);
  // The frames' part: 32 Gaussians over 40 numbers a frame; the supervectors' components, at most one a fit song (16 here, 128 wanted).
  expect(written.signal.frames.gmm.weights).toHaveLength(32);
  expect(written.signal.frames.gmm.means).toHaveLength(32 * 40);
  expect(written.signal.frames.block.offset).toHaveLength(16);
  // Their genres' discriminant: two directions again, at 0.7; MAP adaptation at relevance 1.
  expect(written.signal.frames.discriminant.offset).toHaveLength(2);
  expect(written.signal.frames.discriminant.weight).toBe(0.7);
  expect(written.signal.frames.relevance).toBe(1);
  expect(written.models).toBeUndefined();
  // Refitted without models, a file that has the models' part keeps it.
  const models = { mean: [0.5], components: [[1]], scale: [1], classifiers: { mean: [0.1, 0.2, 0.3, 0.4, 0.5], weight: 0.2 } };
  await writeFile(weights, JSON.stringify({ ...written, models }));
  const again = ok(await npmRun('bench:similarity', ['--dataset', dataset, '--fit', fit, '--cache', path.join(scratch, 'similarity-cache'), '--seeds', '1', '--write', '--weights', weights], signalOnly, 240_000));
  expect(again).toContain("the models' part kept from the file");
  const rewritten = JSON.parse(await readFile(weights, 'utf8')) as typeof written;
  expect(rewritten.models).toEqual(models);
  expect(rewritten.signal.frames.discriminant).toEqual(written.signal.frames.discriminant);
}, 480_000);

it('bench:sound seeds a store with embeddings, loads the sound index, builds its graph and times similar by sound, recommendations seeded by a track and the recall', async () => {
  const out = ok(await npmRun('bench:sound', ['--rows', '3000', '--dims', '16', '--queries', '30', '--recall', '10', '--graph-from', '1000', '--only', 'sqlite', '--ef', '20,80'], env(), 240_000));
  expect(out).toContain('bench:sound: 3000 analyses, embeddings of 16 numbers around 6 centres');
  expect(out).toMatch(/^SQLite: 3000 embeddings of 16 numbers$/m);
  expect(out).toMatch(/^ {2}HNSW graph \(M 16, ef 200 building, 160 searching\): built in [\d.]+ s/m);
  expect(out).toMatch(/^ {2}similar\(by: SOUND\), first 10, 30 seeds: p50 [\d.]+ ms, p99 [\d.]+ ms/m);
  // The answer's parts timed alone, and the collector's pauses over the same queries.
  expect(out).toMatch(/^ {4}its parts, each again alone: catching up with the store p50 [\d.]+, p99 [\d.]+ ms; reading the ten found p50 [\d.]+, p99 [\d.]+ ms$/m);
  expect(out).toMatch(/^ {4}garbage collection meanwhile: \d+ pauses, \d+ ms in all, the longest [\d.]+ ms \(\d+ major\)$/m);
  expect(out).toMatch(/^ {2}recommendations\(seed, limit 20\) by sound, 30 seeds: p50 [\d.]+ ms, p99 [\d.]+ ms$/m);
  const recall = Number(/recall@10 against the exact nearest \(10 seeds\): ([\d.]+)/.exec(out)![1]);
  expect(recall).toBeGreaterThan(0.9);
  // --ef: the same graph searched again at each beam, with its recall.
  const beams = [...out.matchAll(/^ {2}ef (\d+): the search alone p50 [\d.]+ ms, p99 [\d.]+ ms; recall@10 ([\d.]+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]);
  expect(beams.map(([ef]) => ef)).toEqual([20, 80]);
  for (const [, r] of beams) expect(r).toBeGreaterThan(0.5);
});

describeWith({ postgres: true })('bench:sound on Postgres', () => {
  it('keeps its schema with --keep, measures it again with --schema without seeding, then drops it', async () => {
    const args = ['--rows', '2000', '--dims', '8', '--queries', '20', '--recall', '5', '--graph-from', '500', '--only', 'postgres'];
    const first = ok(await npmRun('bench:sound', [...args, '--keep'], env(), 240_000));
    expect(first).toMatch(/^Postgres seeded in [\d.]+ s$/m);
    const schema = /^Postgres: kept as the schema (\w+) \(--schema \1 measures it again\)$/m.exec(first)![1]!;
    try {
      expect(await schemaExists(schema)).toBe(true);
      const again = ok(await npmRun('bench:sound', [...args, '--schema', schema], env(), 240_000));
      expect(again).not.toContain('Postgres seeded');
      expect(again).toMatch(/^Postgres: 2000 embeddings of 8 numbers$/m);
      expect(again).not.toContain('kept as the schema');
      expect(await schemaExists(schema)).toBe(false);
    } finally {
      await dropSchema(schema);
    }
  }, 480_000);
});
