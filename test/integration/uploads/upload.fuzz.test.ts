import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { encodeWav, rng } from '../../../measure/audio/audio-signals';
import { clickTrack, SAMPLE_RATE } from '../../../measure/audio/signals';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const fixture = (name: string): Buffer => readFileSync(path.join(__dirname, '../../fixtures/audio', name));

/** Real audio of three containers: a WAV made here, an MP3 (LAME) and a FLAC from the fixtures. */
const SOURCES: Record<string, Buffer> = {
  wav: Buffer.from(encodeWav([clickTrack({ bpm: 120, seconds: 2 })], SAMPLE_RATE)),
  mp3: fixture('chord-3s.mp3'),
  flac: fixture('chord-3s.flac'),
};

type Mutation = (bytes: Buffer, random: () => number) => Buffer;
const at = (random: () => number, length: number): number => Math.floor(random() * length);

const MUTATIONS: Record<string, Mutation> = {
  /** Bytes flipped here and there, the headers included. */
  flip(bytes, random) {
    const out = Buffer.from(bytes);
    const flips = 1 + at(random, 40);
    for (let i = 0; i < flips; i++) {
      // Half of the flips in the first 512 bytes, where the headers are.
      const position = random() < 0.5 ? at(random, Math.min(512, out.length)) : at(random, out.length);
      out[position] = out[position]! ^ (1 << at(random, 8));
    }
    return out;
  },
  /** Cut anywhere, as a download that stopped. */
  truncate(bytes, random) {
    return bytes.subarray(0, at(random, bytes.length));
  },
  /** A slice of the file copied over another place, or a slice of another container's bytes put in. */
  splice(bytes, random) {
    const others = Object.values(SOURCES);
    const donor = others[at(random, others.length)]!;
    const from = at(random, donor.length);
    const piece = donor.subarray(from, from + 1 + at(random, 4096));
    const into = at(random, bytes.length);
    return Buffer.concat([bytes.subarray(0, into), piece, bytes.subarray(into + (random() < 0.5 ? piece.length : 0))]);
  },
};

const ROUNDS = 8;

describe('uploads of mutated audio (fuzz)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('when real WAV, MP3 and FLAC bytes are flipped, truncated and spliced, then every answer is a 2xx or a 4xx in the contract\'s shape, nothing is left behind and the server answers /healthz', async () => {
    const random = rng(20261125);
    const statuses = new Map<number, number>();
    for (const [format, bytes] of Object.entries(SOURCES)) {
      for (const [name, mutate] of Object.entries(MUTATIONS)) {
        for (let round = 0; round < ROUNDS; round++) {
          const body = mutate(bytes, random);
          const label = `${format}-${name}-${round}`;
          const send = request(t.app).post(`/api/audio/analyses?artist=Fuzz&track=${label}`).set(t.auth);
          const res = round % 2 === 0 ? await send.set('Content-Type', 'application/octet-stream').send(body) : await send.attach('file', body, `${label}.${format}`);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
          if (res.status >= 400) expect(res.body).toEqual({ success: false, error: { code: expect.any(String), message: expect.any(String) } });
        }
      }
    }
    // Both outcomes were met: the mutations did not all break the files, nor all leave them whole.
    const codes = [...statuses.keys()];
    expect(codes.some((s) => s < 300)).toBe(true);
    expect(codes.some((s) => s >= 400)).toBe(true);
    for (let i = 0; i < 100 && (await readdir(path.join(t.dir, 'data', 'uploads'))).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await readdir(path.join(t.dir, 'data', 'uploads'))).toEqual([]);
    await request(t.app).get('/healthz').expect(200);
  });
});
