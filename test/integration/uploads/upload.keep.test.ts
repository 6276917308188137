import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { encodeWav } from '../../../measure/audio/audio-signals';
import { clickTrack, SAMPLE_RATE } from '../../../measure/audio/signals';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const wavAt = (bpm: number): Buffer => Buffer.from(encodeWav([clickTrack({ bpm, seconds: 3 })], SAMPLE_RATE));

describe('UPLOAD_KEEP', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const library = async (): Promise<string[]> => (await readdir(t.libraryDir)).sort();
  const uploads = async (): Promise<string[]> => readdir(path.join(t.dir, 'data', 'uploads'));
  const upload = (body: Buffer, artist: string, track: string) =>
    request(t.app)
      .post(`/api/audio/analyses?artist=${encodeURIComponent(artist)}&track=${encodeURIComponent(track)}`)
      .set(t.auth)
      .set('Content-Type', 'audio/wav')
      .send(body);

  it('when true, then an analysed upload is kept in the library folder as "Artist - Track.ext", named safely, never over another file', async () => {
    t = await createTestApp({ env: { UPLOAD_KEEP: 'true' } });
    const first = wavAt(120);
    await upload(first, 'Click Band', 'Metronome').expect(200);
    expect(await library()).toEqual(['Click Band - Metronome.wav']);
    expect(Buffer.compare(await readFile(path.join(t.libraryDir, 'Click Band - Metronome.wav')), first)).toBe(0);

    // Other bytes under the same name: kept beside, the first file untouched.
    const second = wavAt(100);
    await upload(second, 'Click Band', 'Metronome').expect(200);
    expect(await library()).toEqual(['Click Band - Metronome (2).wav', 'Click Band - Metronome.wav']);
    expect(Buffer.compare(await readFile(path.join(t.libraryDir, 'Click Band - Metronome.wav')), first)).toBe(0);
    expect(Buffer.compare(await readFile(path.join(t.libraryDir, 'Click Band - Metronome (2).wav')), second)).toBe(0);

    // Names that try to leave the folder stay in it, one segment.
    await upload(wavAt(140), '../../outside', '../etc/passwd').expect(200);
    expect(await library()).toContain('outside - etc_passwd.wav');
    expect(await readdir(path.dirname(t.libraryDir))).toEqual(expect.not.arrayContaining(['outside - etc_passwd.wav', 'outside']));
    expect((await library()).every((name) => !name.startsWith('.'))).toBe(true);
    expect(await uploads()).toEqual([]);
  });

  it('when true, then audio that cannot be analysed is not kept', async () => {
    t = await createTestApp({ env: { UPLOAD_KEEP: 'true' } });
    const silent = Buffer.from(encodeWav([new Float32Array(3 * SAMPLE_RATE)], SAMPLE_RATE));
    await upload(silent, 'Quiet', 'Nothing').expect(422);
    expect(await library()).toEqual([]);
    expect(await uploads()).toEqual([]);
  });

  it('when false (the default), then nothing is kept: the library folder stays empty, the uploads folder too', async () => {
    t = await createTestApp();
    await upload(wavAt(120), 'Click Band', 'Metronome').expect(200);
    expect(await library()).toEqual([]);
    expect(await uploads()).toEqual([]);
  });
});
