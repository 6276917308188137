import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { runIndexCli } from '../../../src/cli/index-library';
import { AppError } from '../../../src/core/errors';
import { camelotKey, openKey, standardKey } from '../../../src/core/music';
import { textSink } from '../../helpers/log-capture';
import { FakeEngine, featuresFromBytes } from '../../../measure/http/fake-engine';
import { readWithMusicMetadata } from '../../helpers/music-metadata';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'audio');

describe('npm run index -- --write-tags [--dry-run] <dir>', () => {
  let dir: string;
  let library: string;
  let engine: FakeEngine;

  const run = async (args: string[]) => {
    const lines: string[] = [];
    const progress = textSink();
    const status = await runIndexCli([...args, library], {
      out: (line) => lines.push(line),
      progress: progress.stream,
      env: { DATA_DIR: path.join(dir, 'data'), CACHE_URL: `sqlite://${path.join(dir, 'data', 'cache.sqlite')}`, ANALYSIS_WORKERS: '1', LOG_LEVEL: 'silent' },
      overrides: { engine, logger: pino({ level: 'silent' }) },
    });
    return { status, lines };
  };

  const FILES: [string, string][] = [
    ['chord-3s.mp3', 'Band - One.mp3'],
    ['chord-3s.flac', 'Band - Two.flac'],
    ['tone-aac.m4a', 'Band - Three.m4a'],
    ['tone.wma', 'Band - Four.wma'],
    ['chord-3s.ogg', 'Band - Locked.ogg'],
  ];
  const bytesOf = async (): Promise<Buffer[]> => Promise.all(FILES.map(([, to]) => readFile(path.join(library, to))));

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-write-tags-'));
    library = path.join(dir, 'music');
    await mkdir(library);
    for (const [from, to] of FILES) await copyFile(path.join(FIXTURES, from), path.join(library, to));
    await chmod(path.join(library, 'Band - Locked.ogg'), 0o444);
    engine = new FakeEngine();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('lists what a dry run would change and writes nothing; then writes the stored analysis, then finds nothing to change', async () => {
    const original = await bytesOf();
    const dry = await run(['--write-tags', '--min-key-confidence', '0', '--dry-run']);
    expect(dry.lines[0]).toBe(`${library}: 5 tracks, 0 already stored, 5 analysed, 0 failed`);
    expect(dry.lines[1]).toBe('tags (dry run, nothing written): 3 to write, 0 unchanged, 1 skipped, 1 failed');
    const features = featuresFromBytes(original[0]!);
    expect(dry.lines).toContain(
      `  would write: Band - One.mp3: BPM (none) → ${Math.round(features.tempo)}, INITIALKEY (none) → ${standardKey(features.key, features.mode)}, ` +
        `INITIALKEY_OPENKEY (none) → ${openKey(features.key, features.mode)}, MOOD_HAPPY (none) → ${features.mood.happy.toFixed(2)}, ` +
        `MOOD_SAD (none) → ${features.mood.sad.toFixed(2)}, MOOD_RELAXED (none) → ${features.mood.relaxed.toFixed(2)}, MOOD_AGGRESSIVE (none) → ${features.mood.aggressive.toFixed(2)}`,
    );
    expect(dry.lines).toContain('  skipped: Band - Four.wma: tags are not written to .wma (.mp3 .mp2 .aif .aiff .flac .ogg .oga .opus .m4a are)');
    expect(dry.lines).toContain('  failed: Band - Locked.ogg: read-only (left untouched)');
    expect(dry.status).toBe(1);
    (await bytesOf()).forEach((b, i) => expect(b.equals(original[i]!)).toBe(true));

    const real = await run(['--write-tags', '--min-key-confidence', '0']);
    expect(real.lines[1]).toBe('tags: 3 written, 0 unchanged, 1 skipped, 1 failed');
    expect(real.status).toBe(1);
    const mp3 = await readWithMusicMetadata(path.join(library, 'Band - One.mp3'));
    expect(mp3.bpm).toBe(Math.round(features.tempo));
    expect(mp3.native).toMatchObject({ TKEY: standardKey(features.key, features.mode), 'TXXX:INITIALKEY_OPENKEY': openKey(features.key, features.mode) });
    const flac = await readWithMusicMetadata(path.join(library, 'Band - Two.flac'));
    expect(flac.native.BPM).toBe(String(Math.round(featuresFromBytes(original[1]!).tempo)));
    const after = await bytesOf();
    expect(after[3]!.equals(original[3]!)).toBe(true);
    expect(after[4]!.equals(original[4]!)).toBe(true);
    expect((await readdir(library)).sort()).toEqual(FILES.map(([, to]) => to).sort());

    // The changed files are re-read by the index but keep their tracks: nothing is analysed or written again.
    const again = await run(['--write-tags', '--min-key-confidence', '0']);
    expect(again.lines[0]).toBe(`${library}: 5 tracks, 5 already stored, 0 analysed, 0 failed`);
    expect(again.lines[1]).toBe('tags: 0 written, 3 unchanged, 1 skipped, 1 failed');
  });

  it('leaves the key out where its confidence is under --min-key-confidence (default 0.85), writes the rest, and counts the keys left out', async () => {
    const original = await bytesOf();
    // The three files whose tags are written (One, Two, Three) and their key confidences.
    const confidences = original.slice(0, 3).map((b) => featuresFromBytes(b).confidence.key);
    const threshold = [...confidences].sort((a, b) => a - b)[1]!;
    const low = confidences.filter((c) => c < threshold).length;
    const ran = await run(['--write-tags', '--min-key-confidence', String(threshold)]);
    expect(ran.lines).toContain('tags: 3 written, 0 unchanged, 1 skipped, 1 failed');
    expect(ran.lines).toContain(`keys left out (key confidence under ${threshold}, --min-key-confidence): ${low}`);
    const mp3 = await readWithMusicMetadata(path.join(library, 'Band - One.mp3'));
    const one = featuresFromBytes(original[0]!);
    expect(mp3.bpm).toBe(Math.round(one.tempo));
    if (one.confidence.key < threshold) expect(mp3.native).not.toHaveProperty('TKEY');
    else expect(mp3.native).toMatchObject({ TKEY: standardKey(one.key, one.mode) });

    // The default threshold, and the refusals of a threshold that is no confidence.
    const byDefault = await run(['--write-tags', '--dry-run']);
    const underDefault = confidences.filter((c) => c < 0.85).length;
    expect(byDefault.lines).toContain(`keys left out (key confidence under 0.85, --min-key-confidence): ${underDefault}`);
    for (const wrong of ['1.5', '-0.1', 'high', '']) {
      const refused = await run(['--write-tags', `--min-key-confidence=${wrong}`]);
      expect(refused.status).toBe(2);
      expect(refused.lines[0]).toMatch(/^--min-key-confidence must be a number from 0 to 1/);
    }
    // An option without its value is said with the usage, not thrown.
    const noValue = await run(['--write-tags', '--min-key-confidence']);
    expect(noValue.status).toBe(2);
    expect(noValue.lines[0]).toMatch(/--min-key-confidence/);
    expect((await run(['--min-key-confidence', '0.5'])).status).toBe(2);
  });

  it('skips, and says so, a file whose track has no stored analysis', async () => {
    engine.failWith = new AppError('AUDIO_UNDECODABLE', 'the file could not be decoded');
    const ran = await run(['--write-tags', '--dry-run']);
    expect(ran.lines).toContain('tags (dry run, nothing written): 0 to write, 0 unchanged, 5 skipped, 0 failed');
    expect(ran.lines).toContain('  skipped: Band - One.mp3: no stored analysis');
  });

  it('writes the BPM counted within --bpm-range, halved or doubled into it, and leaves the stored analysis as it was', async () => {
    const original = await bytesOf();
    const tempi = original.slice(0, 3).map((b) => featuresFromBytes(b).tempo);
    // A range an octave wide that holds some of the engine's tempi (60-180 BPM) and not others.
    const range = { min: 90, max: 180 };
    const inRange = (t: number) => (t < range.min ? 2 * t : t);
    const ran = await run(['--write-tags', '--min-key-confidence', '0', '--bpm-range', `${range.min}-${range.max}`]);
    expect(ran.lines).toContain('tags: 3 written, 0 unchanged, 1 skipped, 1 failed');
    const mp3 = await readWithMusicMetadata(path.join(library, 'Band - One.mp3'));
    expect(mp3.bpm).toBe(Math.round(inRange(tempi[0]!)));
    const flac = await readWithMusicMetadata(path.join(library, 'Band - Two.flac'));
    expect(flac.native.BPM).toBe(String(Math.round(inRange(tempi[1]!))));
    // Written again without the range, every file whose tempo the range moved gets the engine's own.
    const moved = tempi.filter((t) => Math.round(inRange(t)) !== Math.round(t)).length;
    const again = await run(['--write-tags', '--min-key-confidence', '0']);
    expect(again.lines).toContain(`tags: ${moved} written, ${3 - moved} unchanged, 1 skipped, 1 failed`);
    expect((await readWithMusicMetadata(path.join(library, 'Band - One.mp3'))).bpm).toBe(Math.round(tempi[0]!));
  });

  it('writes the initial key in the notation --key-notation names, Open Key beside it, and refuses a notation it does not know', async () => {
    const original = await bytesOf();
    const one = featuresFromBytes(original[0]!);
    const ran = await run(['--write-tags', '--min-key-confidence', '0', '--key-notation', 'camelot']);
    expect(ran.lines).toContain('tags: 3 written, 0 unchanged, 1 skipped, 1 failed');
    const mp3 = await readWithMusicMetadata(path.join(library, 'Band - One.mp3'));
    expect(mp3.native).toMatchObject({ TKEY: camelotKey(one.key, one.mode), 'TXXX:INITIALKEY_OPENKEY': openKey(one.key, one.mode) });
    const flac = await readWithMusicMetadata(path.join(library, 'Band - Two.flac'));
    const two = featuresFromBytes(original[1]!);
    expect(flac.native).toMatchObject({ INITIALKEY: camelotKey(two.key, two.mode) });
    // Back to the standard notation: the key fields change again.
    const standard = await run(['--write-tags', '--min-key-confidence', '0', '--dry-run']);
    expect(standard.lines).toContain(`  would write: Band - One.mp3: INITIALKEY ${camelotKey(one.key, one.mode)} → ${standardKey(one.key, one.mode)}`);
    for (const args of [['--write-tags', '--key-notation', 'lancelot'], ['--write-tags', '--key-notation=']]) {
      const refused = await run(args);
      expect(refused.status).toBe(2);
      expect(refused.lines[0]).toMatch(/^--key-notation must be standard, open-key, camelot, not "/);
    }
    expect((await run(['--key-notation', 'camelot'])).status).toBe(2);
  });

  it('refuses a --bpm-range that is no range, and one without --write-tags', async () => {
    for (const wrong of ['180-90', 'fast', '5-50']) {
      const refused = await run(['--write-tags', `--bpm-range=${wrong}`]);
      expect(refused.status).toBe(2);
      expect(refused.lines[0]).toMatch(/^--bpm-range: a BPM range is two tempi from 20 to 400/);
    }
    const alone = await run(['--bpm-range', '70-140']);
    expect(alone.status).toBe(2);
    expect(alone.lines[0]).toMatch(/^usage:/);
  });

  it('refuses --dry-run without --write-tags', async () => {
    const ran = await run(['--dry-run']);
    expect(ran.status).toBe(2);
    expect(ran.lines[0]).toMatch(/^usage:/);
  });
});
