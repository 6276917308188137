import { copyFile, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { camelotKey } from '../../src/core/music';
import { trackKey } from '../../src/core/track-key';
import { FakeEngine, featuresFromBytes } from '../../measure/http/fake-engine';
import { readWithMusicMetadata } from '../helpers/music-metadata';
import { createTestApp, type TestApp } from '../helpers/test-app';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'audio');

/** Polls `check` until it returns a value (not undefined), failing after `ms`. */
async function eventually<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * LIBRARY_WRITE_TAGS on a running server: the files of the folder are analysed and tagged at
 * start, a file dropped in later is picked up by the watcher, analysed and tagged, and a file
 * once tagged is left alone (its own change comes back through the watcher and writes nothing).
 */
describe('LIBRARY_WRITE_TAGS: the server tags its library as it analyses it', () => {
  let t: TestApp;
  let engine: FakeEngine;
  const original = new Map<string, Buffer>();

  beforeAll(async () => {
    engine = new FakeEngine();
    t = await createTestApp({
      engine,
      env: {
        LIBRARY_WATCH: 'true',
        LIBRARY_WRITE_TAGS: 'true',
        LIBRARY_TAGS_MIN_KEY_CONFIDENCE: '0',
        LIBRARY_TAGS_KEY_NOTATION: 'camelot',
        SOURCES: 'library',
      },
      prepareLibrary: async (dir) => {
        for (const [from, to] of [
          ['chord-3s.mp3', 'Band - One.mp3'],
          ['chord-3s.flac', 'Band - Two.flac'],
        ]) {
          await copyFile(path.join(FIXTURES, from!), path.join(dir, to!));
          original.set(to!, await readFile(path.join(dir, to!)));
        }
      },
    });
  }, 60_000);
  afterAll(() => t.close());

  const tagsOf = (file: string) => readWithMusicMetadata(path.join(t.libraryDir, file));

  it('analyses the files it finds at start and writes BPM and key (in the notation asked for) into them', async () => {
    const features = featuresFromBytes(original.get('Band - One.mp3')!);
    const mp3 = await eventually(async () => {
      const read = await tagsOf('Band - One.mp3');
      return read.bpm === undefined ? undefined : read;
    });
    expect(mp3.bpm).toBe(Math.round(features.tempo));
    expect(mp3.native.TKEY).toBe(camelotKey(features.key, features.mode));
    const flacFeatures = featuresFromBytes(original.get('Band - Two.flac')!);
    const flac = await eventually(async () => {
      const read = await tagsOf('Band - Two.flac');
      return read.native.BPM === undefined ? undefined : read;
    });
    expect(flac.native.BPM).toBe(String(Math.round(flacFeatures.tempo)));
    expect(flac.native.MOOD_HAPPY).toBe(flacFeatures.mood.happy.toFixed(2));
    expect(await t.container.store.get(trackKey('Band', 'One'))).not.toBeNull();
  }, 30_000);

  it('tags a file dropped into the folder while it runs', async () => {
    await copyFile(path.join(FIXTURES, 'chord-3s.ogg'), path.join(t.libraryDir, 'Band - Three.ogg'));
    const features = featuresFromBytes(await readFile(path.join(FIXTURES, 'chord-3s.ogg')));
    const ogg = await eventually(async () => {
      const read = await tagsOf('Band - Three.ogg');
      return read.native.BPM === undefined ? undefined : read;
    });
    expect(ogg.native.BPM).toBe(String(Math.round(features.tempo)));
    expect(ogg.native.INITIALKEY).toBe(camelotKey(features.key, features.mode));
  }, 30_000);

  it('leaves a tagged file alone: its own change is picked up and nothing is analysed or written again', async () => {
    const file = path.join(t.libraryDir, 'Band - Three.ogg');
    await eventually(async () => ((await tagsOf('Band - Three.ogg')).native.BPM === undefined ? undefined : true));
    const calls = engine.analyseCalls;
    const before = await stat(file);
    // Longer than the watcher's settling (0.5 s) and the re-read of the changed file.
    await new Promise((r) => setTimeout(r, 2_500));
    const after = await stat(file);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
    expect(engine.analyseCalls).toBe(calls);
  }, 30_000);
});
