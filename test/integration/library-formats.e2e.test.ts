import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../src/core/track-key';
import { createTestApp, type TestApp } from '../helpers/test-app';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'audio');

/** Fixture → its name in the library. Tagged files keep theirs; the others are named "Artist - Title.ext". */
const AT_START: [fixture: string, libraryName: string, title: string, seconds: number][] = [
  ['tone-aac.m4a', 'tone-aac.m4a', 'Tone AAC', 3],
  ['tone-alac.m4a', 'tone-alac.m4a', 'Tone ALAC', 3],
  ['tone.aiff', 'tone.aiff', 'Tone AIFF', 2],
  ['tone-sowt.aifc', 'tone-sowt.aifc', 'Tone AIFF-C', 2],
  ['tone.wma', 'tone.wma', 'Tone WMA', 3],
  ['tone.wv', 'tone.wv', 'Tone WavPack', 3],
  ['tone.tta', 'Fixture Artist - Tone TTA.tta', 'Tone TTA', 3],
];
/** Added while the server runs: the watcher picks them up. */
const ADDED: typeof AT_START = [
  ['tone.caf', 'Fixture Artist - Tone CAF.caf', 'Tone CAF', 2],
  ['tone.aac', 'Fixture Artist - Tone ADTS.aac', 'Tone ADTS', 3],
  ['tone-opus.webm', 'tone-opus.webm', 'Tone WebM', 3],
  ['tone-vorbis.mka', 'tone-vorbis.mka', 'Tone Matroska', 3],
  ['tone-flac.oga', 'Fixture Artist - Tone Ogg FLAC.oga', 'Tone Ogg FLAC', 3],
  ['tone.mp2', 'Fixture Artist - Tone MP2.mp2', 'Tone MP2', 3],
  ['tone.ac3', 'Fixture Artist - Tone AC-3.ac3', 'Tone AC-3', 3],
  ['tone.eac3', 'Fixture Artist - Tone E-AC-3.eac3', 'Tone E-AC-3', 3],
  ['tone.dts', 'Fixture Artist - Tone DTS.dts', 'Tone DTS', 2],
];

const ARTIST = 'Fixture Artist';

interface SearchBody {
  data: { trackName: string; artist: string; trackKey: string; match_score: number }[];
}
interface AnalysisBody {
  data: { duration_ms: number; keyString: string };
}

/**
 * Every container the library indexes, in LIBRARY_DIR at start and added while the server runs,
 * found by search from its tags (or its file name) and analysed by the real engine.
 */
describe('a library of every indexed format', () => {
  let t: TestApp;
  const get = (url: string) => request(t.app).get(url).set(t.auth);
  const search = (title: string) => get(`/api/audio/search?track=${encodeURIComponent(title)}&artist=${encodeURIComponent(ARTIST)}&limit=1`);

  beforeAll(async () => {
    t = await createTestApp({
      env: { LIBRARY_WATCH: 'true' },
      prepareLibrary: async (dir) => {
        for (const [fixture, name] of AT_START) await copyFile(path.join(FIXTURES, fixture), path.join(dir, name));
        await copyFile(path.join(FIXTURES, 'tone-alac.caf'), path.join(dir, 'Fixture Artist - Tone ALAC CAF.caf'));
        // Monkey's Audio: no installed decoder reads it, so the library does not index it.
        await writeFile(path.join(dir, 'Fixture Artist - Tone APE.ape'), Buffer.concat([Buffer.from('MAC '), Buffer.alloc(2000)]));
      },
    });
    for (const [fixture, name] of ADDED) await copyFile(path.join(FIXTURES, fixture), path.join(t.libraryDir, name));
    // The watcher waits for a file to stop changing (500 ms) before reading it.
    for (const [, , title] of ADDED) {
      for (let tries = 0; tries < 200; tries++) {
        const res = await search(title);
        if ((res.body as SearchBody).data[0]?.trackName === title) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 60_000);
  afterAll(() => t.close());

  it.each([...AT_START, ...ADDED])('%s is found by search as "%s"', async (_fixture, _name, title) => {
    const res = await search(title).expect(200);
    expect((res.body as SearchBody).data[0]).toMatchObject({ trackName: title, artist: ARTIST, trackKey: trackKey(ARTIST, title), match_score: 1 });
  });

  it.each([...AT_START, ...ADDED])('%s is analysed from its audio', async (_fixture, _name, title, seconds) => {
    const { data } = (await get(`/api/audio/analysis/${trackKey(ARTIST, title)}`).expect(200)).body as AnalysisBody;
    expect(Math.abs(data.duration_ms - seconds * 1000)).toBeLessThan(50);
    expect(data.keyString).toEqual(expect.any(String));
  }, 60_000);

  it('a file of a container no decoder reads is not indexed', async () => {
    const res = await search('Tone APE').expect(200);
    expect((res.body as SearchBody).data.map((r) => r.trackName)).not.toContain('Tone APE');
  });

  it('a file whose codec no decoder reads (ALAC in CAF) is indexed, and its analysis is 422 AUDIO_UNDECODABLE', async () => {
    await search('Tone ALAC CAF').expect(200);
    const res = await get(`/api/audio/analysis/${trackKey(ARTIST, 'Tone ALAC CAF')}`).expect(422);
    expect(res.body).toEqual({ success: false, error: { code: 'AUDIO_UNDECODABLE', message: expect.stringMatching(/unsupported CAF content/) as unknown } });
    // The server is still up.
    await get(`/api/audio/analysis/${trackKey(ARTIST, 'Tone AAC')}`).expect(200);
  });
});
