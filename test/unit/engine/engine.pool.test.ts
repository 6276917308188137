import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../src/core/errors';
import type { AudioFeatures } from '../../../src/core/types';
import { createEnginePool, type EnginePool } from '../../../src/engine/engine.pool';
import { RATE, encodeWav, song } from '../../../measure/audio/audio-signals';

// Real analyses of generated audio: seconds each on an idle core, much more on a shared one.
jest.setTimeout(180_000);

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(__dirname, '../../fixtures/audio', name)));

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Cheap to generate at any length: decaying 1 kHz clicks on every beat over a soft 220 Hz tone. */
function clickTrack(seconds: number, bpm: number): Float32Array {
  const out = new Float32Array(seconds * RATE);
  const beat = Math.round((60 / bpm) * RATE);
  for (let i = 0; i < out.length; i++) {
    const t = i % beat;
    out[i] = 0.05 * Math.sin((2 * Math.PI * 220 * i) / RATE) + (t < 2000 ? 0.6 * Math.sin((2 * Math.PI * 1000 * t) / RATE) * Math.exp(-t / 300) : 0);
  }
  return out;
}

function expectDescriptorsInRange(f: AudioFeatures): void {
  const values = [
    f.energy, f.danceability, f.liveness, f.speechiness, f.instrumentalness, f.valence, f.arousal,
    f.approachability, f.engagement, f.mood.happy, f.mood.sad, f.mood.relaxed, f.mood.aggressive,
    f.confidence.tempo, f.confidence.key, f.confidence.mode, f.confidence.timeSignature,
  ];
  for (const v of values) {
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(1);
  }
}

describe('engine pool (real worker threads)', () => {
  let pool: EnginePool;

  beforeAll(() => {
    pool = createEnginePool({ workers: 2, timeoutMs: 60_000, windowSeconds: 20 });
  });

  afterAll(async () => {
    await pool.close();
  });

  it.each(['chord-3s.mp3', 'chord-3s.ogg', 'chord-3s.opus', 'chord-3s.flac'])(
    'when %s is analysed, then every field is measured and the duration is the file’s',
    async (name) => {
      const features = await pool.analyse({ bytes: fixture(name) });
      expect(features.durationMs).toBeGreaterThan(2900);
      expect(features.durationMs).toBeLessThan(3100);
      expect(features.loudness).toBeLessThan(0);
      expect(features.loudness).toBeGreaterThan(-40);
      expect(Number.isInteger(features.key)).toBe(true);
      expectDescriptorsInRange(features);
      expect(features.engine).toMatch(/^trackgraph-engine\/\d+$/);
    },
  );

  it('when a generated WAV is given as bytes and as a path, then both are analysed alike', async () => {
    const fromBytes = await pool.analyse({ bytes: fixture('chord-3s.flac') });
    const fromPath = await pool.analyse({ path: path.join(__dirname, '../../fixtures/audio/chord-3s.flac') });
    expect(fromPath).toEqual(fromBytes);
  });

  it('when the same bytes are analysed twice, then the output is identical', async () => {
    const wav = encodeWav([song(12, { bpm: 118, tonic: 2, minor: false, bright: true })], RATE);
    const [a, b] = await Promise.all([pool.analyse({ bytes: wav }), pool.analyse({ bytes: wav })]);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('when the file is longer than 45 s, then the middle window is analysed and times count from the file start', async () => {
    const wav = encodeWav([clickTrack(48, 120)], RATE);
    const features = await pool.analyse({ bytes: wav });
    expect(features.durationMs).toBe(48_000);
    const beats = features.timeline.beats;
    expect(beats.length).toBeGreaterThan(10);
    // A 20 s window from the middle of 48 s: 14 s to 34 s.
    expect(beats[0]!.start).toBeGreaterThanOrEqual(14);
    expect(beats.at(-1)!.start).toBeLessThan(34);
    expect(features.timeline.sections[0]!.start).toBeCloseTo(14, 3);
    const last = features.timeline.sections.at(-1)!;
    expect(last.start + last.duration).toBeCloseTo(34, 2);
  });

  it.each([
    ['truncated.flac', /truncated FLAC/],
    ['truncated.mp3', /truncated MP3/],
    ['garbage.mp3', /unknown|corrupt|no audio/],
  ])('when the file is %s, then AUDIO_UNDECODABLE says why', async (name, message) => {
    const error = await failure(pool.analyse({ bytes: fixture(name) }));
    expect(error.code).toBe('AUDIO_UNDECODABLE');
    expect(error.message).toMatch(message);
  });

  it('when the WAV is cut short of its header, then AUDIO_UNDECODABLE (truncated)', async () => {
    const wav = encodeWav([song(3, { bpm: 100, tonic: 0, minor: false, bright: false })], RATE);
    const error = await failure(pool.analyse({ bytes: wav.subarray(0, 40_000) }));
    expect(error.code).toBe('AUDIO_UNDECODABLE');
    expect(error.message).toMatch(/truncated WAV/);
  });

  it('when a WAV header claims 10 hours over 4 s of samples, then the 4 s are analysed (the claim is not believed)', async () => {
    const wav = Buffer.from(encodeWav([clickTrack(4, 120)], RATE));
    const claim = 10 * 3600 * RATE * 2;
    wav.writeUInt32LE(claim, 40);
    wav.writeUInt32LE(claim + 36, 4);
    const features = await pool.analyse({ bytes: new Uint8Array(wav) });
    expect(features.durationMs).toBe(4000);
    expect(Math.abs(features.tempo - 120)).toBeLessThan(2);
  });

  it('when a FLAC STREAMINFO claims 10 hours over 3 s of frames, then the 3 s are analysed; a FLAC cut short of an honest length is still refused', async () => {
    const flac = Buffer.from(fixture('chord-3s.flac'));
    // STREAMINFO follows "fLaC" and its 4-byte block header: total samples are its bits 108-143.
    const total = 10 * 3600 * 22050;
    flac[8 + 13] = (flac[8 + 13]! & 0xf0) | Math.floor(total / 2 ** 32);
    flac.writeUInt32BE(total >>> 0, 8 + 14);
    const features = await pool.analyse({ bytes: new Uint8Array(flac) });
    expect(features.durationMs).toBe(3000);
    expect((await failure(pool.analyse({ bytes: fixture('truncated.flac') }))).message).toMatch(/truncated FLAC/);
  });

  it('when one flipped bit makes a WAV IMA ADPCM with blocks too small for their header, then AUDIO_UNDECODABLE at once (its decoder would never return)', async () => {
    const wav = Buffer.from(encodeWav([clickTrack(2, 120)], RATE));
    // Format tag 1 (PCM) → 0x11 (IMA ADPCM); the block align stays 2 bytes.
    wav.writeUInt16LE(0x11, 20);
    const error = await failure(pool.analyse({ bytes: new Uint8Array(wav) }));
    expect(error.code).toBe('AUDIO_UNDECODABLE');
    expect(error.message).toMatch(/corrupt WAV header: an ADPCM block of 2 bytes/);
  });

  it('when the input is empty, silent or too short, then AUDIO_UNDECODABLE names the reason', async () => {
    expect((await failure(pool.analyse({ bytes: new Uint8Array(0) }))).message).toMatch(/empty/);
    const silent = encodeWav([new Float32Array(RATE * 3)], RATE);
    expect((await failure(pool.analyse({ bytes: silent }))).message).toMatch(/silent/);
    const short = encodeWav([song(0.5, { bpm: 100, tonic: 0, minor: false, bright: true })], RATE);
    expect((await failure(pool.analyse({ bytes: short }))).message).toMatch(/too short/);
  });

  it('when the file does not exist, then INVALID_ARGUMENT', async () => {
    const error = await failure(pool.analyse({ path: '/nonexistent/dir/track.mp3' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
  });

  it('when an analysis exceeds its timeout, then ANALYSIS_TIMEOUT and the next analysis still works', async () => {
    const bytes = fixture('chord-3s.mp3');
    const error = await failure(pool.analyse({ bytes }, { timeoutMs: 1 }));
    expect(error.code).toBe('ANALYSIS_TIMEOUT');
    const features = await pool.analyse({ bytes });
    expect(features.durationMs).toBeGreaterThan(2900);
  });

  it('when the worker fails unexpectedly, then INTERNAL without the detail, which goes to the log, and the pool goes on', async () => {
    const warnings: string[] = [];
    const logged = createEnginePool({ workers: 1, timeoutMs: 60_000, windowSeconds: 20, logger: { warn: (_o, msg) => warnings.push(msg) } });
    try {
      // A file descriptor instead of a path: readFile fails with EBADF, an unexpected error.
      const error = await failure(logged.analyse({ path: 987654 as unknown as string }));
      expect(error.code).toBe('INTERNAL');
      expect(error.message).not.toMatch(/EBADF/);
      expect(warnings).toContain('analysis failed unexpectedly');
      expect((await logged.analyse({ bytes: fixture('chord-3s.ogg') })).durationMs).toBeGreaterThan(2900);
    } finally {
      await logged.close();
    }
  });

  it('when the caller aborts, then the analysis is abandoned with the abort reason', async () => {
    const controller = new AbortController();
    controller.abort(new Error('client went away'));
    await expect(pool.analyse({ bytes: fixture('chord-3s.mp3') }, { signal: controller.signal })).rejects.toThrow('client went away');
  });

  it('when a file is probed, then tags, duration and cover come back without analysis', async () => {
    const probe = await pool.probe({ bytes: fixture('chord-3s.mp3') });
    expect(probe).toMatchObject({ artist: 'Fixture Artist', title: 'Fixture Title', album: 'Fixture Album' });
    expect(probe.durationMs).toBeGreaterThan(2900);
    // Sample rate and channels too: the tag writer compares them before and after a write.
    expect(probe).toMatchObject({ sampleRate: 44100, channels: 2 });
    expect(probe.picture?.mime).toBe('image/png');
    expect(probe.picture?.data.length).toBeGreaterThan(0);
    const opus = await pool.probe({ path: path.join(__dirname, '../../fixtures/audio/chord-3s.opus') });
    expect(opus).toMatchObject({ artist: 'Fixture Artist', title: 'Fixture Title' });
  });

  it.each([
    ['tone-aac.m4a', 'Tone AAC'],
    ['tone-alac.m4a', 'Tone ALAC'],
    ['tone.aiff', 'Tone AIFF'],
    ['tone-sowt.aifc', 'Tone AIFF-C'],
    ['tone.wma', 'Tone WMA'],
    ['tone.wv', 'Tone WavPack'],
    ['tone-opus.webm', 'Tone WebM'],
    ['tone-vorbis.mka', 'Tone Matroska'],
  ])('when %s is probed, then its tags and duration come back', async (name, title) => {
    const probe = await pool.probe({ path: path.join(__dirname, '../../fixtures/audio', name) });
    expect(probe).toMatchObject({ artist: 'Fixture Artist', title });
    expect(probe.durationMs).toBeGreaterThan(1900);
    expect(probe.durationMs).toBeLessThan(3100);
  });

  it.each(['tone.tta', 'tone.caf', 'tone.aac', 'tone.ac3', 'tone.dts'])('when %s, a container the tags parser does not read, is probed, then it has no tags and no error', async (name) => {
    // Only the stream's facts, which raw ADTS states in its frame headers: no tags, no duration.
    const tagged = (p: object): string[] => Object.keys(p).filter((k) => k !== 'sampleRate' && k !== 'channels');
    expect(tagged(await pool.probe({ path: path.join(__dirname, '../../fixtures/audio', name) }))).toEqual([]);
    expect(tagged(await pool.probe({ bytes: fixture(name) }))).toEqual([]);
  });

  it('when an M4A is analysed, then every field is measured and the duration is the file’s', async () => {
    const features = await pool.analyse({ bytes: fixture('tone-aac.m4a') });
    expect(features.durationMs).toBe(3000);
    expectDescriptorsInRange(features);
  });

  it('when garbage is probed, then AUDIO_UNDECODABLE', async () => {
    const error = await failure(pool.probe({ bytes: fixture('garbage.mp3') }));
    expect(error.code).toBe('AUDIO_UNDECODABLE');
  });
});
