import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { encodeWav } from '../../../measure/audio/audio-signals';
import { clickTrack, SAMPLE_RATE } from '../../../measure/audio/signals';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const wav = Buffer.from(encodeWav([clickTrack({ bpm: 120, seconds: 8 })], SAMPLE_RATE));
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000, 7)]);
const ZIP = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(4000, 1)]);
const MAX = 1024 * 1024;

/**
 * POSTs a WAV header then zeros, `total` bytes in chunks of `chunkBytes`, chunked or with its
 * Content-Length, to the raw upload route; resolves with the answer. The server may close the
 * connection once it has answered (the rest is not wanted): the client's write errors are expected.
 */
function postPadded(port: number, auth: Record<string, string>, options: { total: number; chunkBytes: number; declare: boolean }): Promise<{ status: number; body: string }> {
  const framing = options.declare ? { 'Content-Length': String(options.total) } : { 'Transfer-Encoding': 'chunked' };
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/api/audio/analyses', headers: { ...auth, 'Content-Type': 'audio/wav', ...framing } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    const head = Buffer.concat([wav.subarray(0, 44), Buffer.alloc(options.chunkBytes - 44)]);
    const zeros = Buffer.alloc(options.chunkBytes);
    let sent = 0;
    const pump = (): void => {
      while (sent < options.total && !req.destroyed) {
        const chunk = sent === 0 ? head : zeros;
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

describe('POST /api/audio/analyses (uploads)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(MAX) } });
  });
  afterAll(() => t.close());

  const uploadsDir = (): string => path.join(t.dir, 'data', 'uploads');
  const leftOver = async (): Promise<string[]> => readdir(uploadsDir());
  const alive = async (): Promise<void> => {
    await request(t.app).get('/healthz').expect(200);
  };

  it('when a WAV is the body, then 200 with its analysis under the key of the artist and track given, Location naming it, nothing left behind', async () => {
    const res = await request(t.app)
      .post('/api/audio/analyses?artist=Click%20Band&track=Metronome')
      .set(t.auth)
      .set('Content-Type', 'audio/wav')
      .send(wav)
      .expect(200);
    const key = trackKey('Click Band', 'Metronome');
    expect(res.headers.location).toBe(`/api/audio/analysis/${key}`);
    expect(res.body.data).toMatchObject({ trackKey: key, artist: 'Click Band', trackName: 'Metronome' });
    expect(Math.abs((res.body.data as { tempo: number }).tempo - 120)).toBeLessThan(2);
    const stored = await request(t.app).get(`/api/audio/analysis/${key}`).set(t.auth).expect(200);
    expect(stored.body.data).toEqual(res.body.data);
    expect(await leftOver()).toEqual([]);
  });

  it('when the same bytes come again as multipart under a file name, then they are named by it and not analysed again', async () => {
    const analyse = jest.spyOn(t.container.engine, 'analyse');
    try {
      const res = await request(t.app).post('/api/audio/analyses').set(t.auth).attach('file', wav, 'Tick Tock - Steady.wav').expect(200);
      const key = trackKey('Tick Tock', 'Steady');
      expect(res.headers.location).toBe(`/api/audio/analysis/${key}`);
      expect(res.body.data).toMatchObject({ trackKey: key, artist: 'Tick Tock', trackName: 'Steady' });
      expect(analyse).not.toHaveBeenCalled();
    } finally {
      analyse.mockRestore();
    }
    expect(await leftOver()).toEqual([]);
  });

  it('when multipart fields name the track (even after the file), then they win over the file name', async () => {
    const res = await request(t.app)
      .post('/api/audio/analyses')
      .set(t.auth)
      .attach('file', wav, 'Tick Tock - Steady.wav')
      .field('artist', 'Field Artist')
      .field('track', 'Field Track')
      .expect(200);
    expect(res.body.data).toMatchObject({ trackKey: trackKey('Field Artist', 'Field Track'), artist: 'Field Artist' });
  });

  it.each([
    ['a PNG renamed .mp3', PNG, 'audio/mpeg'],
    ['a zip', ZIP, 'application/octet-stream'],
    ['text', Buffer.from('hello, this is not a song\n'.repeat(50)), 'audio/wav'],
  ])('when the body is %s, then 415 UNSUPPORTED_MEDIA whatever its type says, nothing left behind', async (_name, body, type) => {
    const res = await request(t.app).post('/api/audio/analyses').set(t.auth).set('Content-Type', type).send(body).expect(415);
    expect(res.body).toEqual({ success: false, error: { code: 'UNSUPPORTED_MEDIA', message: expect.any(String) } });
    expect(await leftOver()).toEqual([]);
    await alive();
  });

  it('when the body is empty, then 400 INVALID_ARGUMENT', async () => {
    const res = await request(t.app).post('/api/audio/analyses').set(t.auth).set('Content-Type', 'audio/wav').send(Buffer.alloc(0)).expect(400);
    expect(res.body.error.code).toBe('INVALID_ARGUMENT');
    expect(await leftOver()).toEqual([]);
  });

  it('when the Content-Type is neither audio nor a form, then 415', async () => {
    const res = await request(t.app).post('/api/audio/analyses').set(t.auth).set('Content-Type', 'text/plain').send('x').expect(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA');
  });

  it('when the WAV bytes are cut short after the header, then a 4xx (never a 5xx) and nothing left behind', async () => {
    const res = await request(t.app).post('/api/audio/analyses?artist=A&track=Cut').set(t.auth).set('Content-Type', 'audio/wav').send(wav.subarray(0, 60));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await leftOver()).toEqual([]);
    await alive();
  });

  it('when Content-Length says more than UPLOAD_MAX_BYTES, then 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(t.app).post('/api/audio/analyses').set(t.auth).set('Content-Type', 'audio/wav').send(Buffer.alloc(MAX + 1));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await leftOver()).toEqual([]);
  });

  it('when a chunked body runs past UPLOAD_MAX_BYTES, then 413 and the connection closed, nothing left behind, the server up', async () => {
    const { port } = await t.listen();
    const status = await postPadded(port, t.auth, { total: 4 * MAX, chunkBytes: 64 * 1024, declare: false });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body)).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await leftOver()).toEqual([]);
    await alive();
  });

  it('when a WAV header claims 10 hours over 8 s of samples, then the 8 s there are analysed (nothing decoded or allocated for 10 h), nothing left behind', async () => {
    const claiming = Buffer.from(wav);
    claiming.writeUInt32LE(10 * 3600 * SAMPLE_RATE * 2, 40);
    claiming.writeUInt32LE(10 * 3600 * SAMPLE_RATE * 2 + 36, 4);
    const res = await request(t.app).post('/api/audio/analyses?artist=Long&track=Claim').set(t.auth).set('Content-Type', 'audio/wav').send(claiming);
    expect([200, 202]).toContain(res.status);
    const key = trackKey('Long', 'Claim');
    expect(res.headers.location).toBe(`/api/audio/analysis/${key}`);
    const analysis = res.status === 200 ? res.body.data : (await request(t.app).get(`/api/audio/analysis/${key}`).set(t.auth).expect(200)).body.data;
    expect(analysis).toMatchObject({ trackKey: key, duration_ms: 8000 });
    expect(Math.abs((analysis as { tempo: number }).tempo - 120)).toBeLessThan(2);
    expect(await leftOver()).toEqual([]);
    await alive();
  });

  it('when a WAV header claims 8 s but 2 s of samples are there, then 422 AUDIO_UNDECODABLE (cut short), nothing left behind', async () => {
    const res = await request(t.app).post('/api/audio/analyses?artist=Cut&track=Short').set(t.auth).set('Content-Type', 'audio/wav').send(wav.subarray(0, 44 + 2 * SAMPLE_RATE * 2));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('AUDIO_UNDECODABLE');
    expect(await leftOver()).toEqual([]);
    await alive();
  });

  it('when the client goes away mid-upload, then the partial file is removed and the server stays up', async () => {
    const { port } = await t.listen();
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/api/audio/analyses', headers: { ...t.auth, 'Content-Type': 'audio/wav', 'Transfer-Encoding': 'chunked' } });
    req.on('error', () => undefined);
    req.write(wav.subarray(0, 200_000));
    // The server has begun writing the file before the client leaves.
    for (let i = 0; i < 100 && (await leftOver()).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await leftOver()).length).toBe(1);
    req.destroy();
    for (let i = 0; i < 200 && (await leftOver()).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await leftOver()).toEqual([]);
    await alive();
  });

  it('when the client goes away in the middle of a multipart file (a browser cancelling its upload), then the partial file is removed too', async () => {
    const { port } = await t.listen();
    const boundary = 'cancelled-upload-boundary';
    const req = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/api/audio/analyses',
      headers: { ...t.auth, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
    req.write(wav.subarray(0, 200_000));
    for (let i = 0; i < 100 && (await leftOver()).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await leftOver()).length).toBe(1);
    req.destroy();
    for (let i = 0; i < 200 && (await leftOver()).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await leftOver()).toEqual([]);
    await alive();
  });
});

/** The default limit (UPLOAD_MAX_BYTES 100 MiB) against a 101 MiB body: mostly zeros, streamed, never held. */
describe('POST /api/audio/analyses at the default size limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({});
  });
  afterAll(() => t.close());

  const MIB = 1024 * 1024;
  const sendSparse = async (total: number, declare: boolean): Promise<{ status: number; body: string }> => {
    const { port } = await t.listen();
    return postPadded(port, t.auth, { total, chunkBytes: MIB, declare });
  };

  it('when a 101 MiB body is declared, then 413 PAYLOAD_TOO_LARGE, nothing left behind, the server up', async () => {
    const res = await sendSparse(101 * MIB, true);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await readdir(path.join(t.dir, 'data', 'uploads'))).toEqual([]);
    await request(t.app).get('/healthz').expect(200);
  });

  it('when a 101 MiB body comes chunked, then reading stops at 100 MiB with 413, nothing left behind, the server up', async () => {
    const res = await sendSparse(101 * MIB, false);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await readdir(path.join(t.dir, 'data', 'uploads'))).toEqual([]);
    await request(t.app).get('/healthz').expect(200);
  });
});
