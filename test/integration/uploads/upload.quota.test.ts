import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { encodeWav } from '../../../measure/audio/audio-signals';
import { clickTrack, SAMPLE_RATE } from '../../../measure/audio/signals';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const KEY_A = 'quota-key-a-0123456789';
const KEY_B = 'quota-key-b-0123456789';
const asA = { Authorization: `Bearer ${KEY_A}` };
const asB = { Authorization: `Bearer ${KEY_B}` };

/** Different bytes each time (the tempo), so that no upload is answered from an earlier one's hash. */
const wavAt = (bpm: number): Buffer => Buffer.from(encodeWav([clickTrack({ bpm, seconds: 3 })], SAMPLE_RATE));
const SIZE = wavAt(120).length;

/** Seconds from now to the next 00:00 UTC. */
const toMidnight = (now: number): number => Math.ceil((Math.ceil(now / 86_400_000) * 86_400_000 - now) / 1000);

interface UsageRow {
  keyId: string;
  uploads: number;
  uploadBytes: number;
}

async function usageOf(t: TestApp, auth: Record<string, string>): Promise<{ rest: UsageRow[]; graphql: UsageRow[] }> {
  const rest = await request(t.app).get('/api/usage?days=1').set(auth).expect(200);
  const gql = await request(t.app)
    .post('/graphql')
    .set(auth)
    .set('Content-Type', 'application/json')
    .send({ query: '{ usage(days: 1) { keyId uploads uploadBytes } }' })
    .expect(200);
  return { rest: rest.body.data as UsageRow[], graphql: gql.body.data.usage as UsageRow[] };
}

describe('upload quota per key per UTC day', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const leftOver = async (): Promise<string[]> => readdir(path.join(t.dir, 'data', 'uploads'));
  const upload = (auth: Record<string, string>, body: Buffer, track: string) =>
    request(t.app).post(`/api/audio/analyses?artist=Quota&track=${track}`).set(auth).set('Content-Type', 'audio/wav').send(body);

  it('when a key has made UPLOAD_QUOTA_FILES_PER_DAY uploads, then the next gets 429 UPLOAD_QUOTA_EXCEEDED with Retry-After to 00:00 UTC; another key still uploads; usage shows the uploads and their bytes', async () => {
    t = await createTestApp({ env: { API_KEYS: `${KEY_A},${KEY_B}`, UPLOAD_QUOTA_FILES_PER_DAY: '2', UPLOAD_QUOTA_BYTES_PER_DAY: '0' } });
    await upload(asA, wavAt(100), 'One').expect(200);
    await upload(asA, wavAt(110), 'Two').expect(200);
    const before = Date.now();
    const refused = await upload(asA, wavAt(130), 'Three');
    const after = Date.now();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: { code: 'UPLOAD_QUOTA_EXCEEDED', message: expect.stringMatching(/2 uploads per day/) } });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeLessThanOrEqual(toMidnight(before));
    expect(retryAfter).toBeGreaterThanOrEqual(toMidnight(after));
    expect(await leftOver()).toEqual([]);

    await upload(asB, wavAt(140), 'Other').expect(200);

    const { rest, graphql } = await usageOf(t, asA);
    // A read key sees its own row: the refused upload is not counted.
    expect(rest).toEqual([expect.objectContaining({ keyId: 'env:1', uploads: 2, uploadBytes: 2 * SIZE })]);
    expect(graphql).toEqual([{ keyId: 'env:1', uploads: 2, uploadBytes: 2 * SIZE }]);
    expect((await usageOf(t, asB)).rest).toEqual([expect.objectContaining({ keyId: 'env:2', uploads: 1, uploadBytes: SIZE })]);
  });

  it('when Content-Length exceeds the bytes left, then 429 before the body is read; a chunked body (no length to lie with) is stopped at the quota, its received bytes counted', async () => {
    const limit = Math.round(2.5 * SIZE);
    t = await createTestApp({ env: { API_KEYS: KEY_A, UPLOAD_QUOTA_FILES_PER_DAY: '0', UPLOAD_QUOTA_BYTES_PER_DAY: String(limit) } });
    await upload(asA, wavAt(100), 'One').expect(200);
    await upload(asA, wavAt(110), 'Two').expect(200);

    const declared = await upload(asA, wavAt(130), 'Three');
    expect(declared.status).toBe(429);
    expect(declared.body.error.code).toBe('UPLOAD_QUOTA_EXCEEDED');
    expect(declared.body.error.message).toMatch(/UPLOAD_QUOTA_BYTES_PER_DAY/);
    expect(Number(declared.headers['retry-after'])).toBeGreaterThan(0);
    expect((await usageOf(t, asA)).rest).toEqual([expect.objectContaining({ uploads: 2, uploadBytes: 2 * SIZE })]);

    // The same bytes without a Content-Length: read until the quota is passed, then refused.
    const { port } = await t.listen();
    const chunked = await new Promise<{ status: number; body: string; retryAfter: string | undefined }>((resolve, reject) => {
      const req = http.request(
        { port, host: '127.0.0.1', method: 'POST', path: '/api/audio/analyses?artist=Quota&track=Chunked', headers: { ...asA, 'Content-Type': 'audio/wav', 'Transfer-Encoding': 'chunked' } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] }));
        },
      );
      req.on('error', reject);
      req.end(wavAt(130));
    });
    expect(chunked.status).toBe(429);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { code: 'UPLOAD_QUOTA_EXCEEDED' } });
    expect(Number(chunked.retryAfter)).toBeGreaterThan(0);
    const [row] = (await usageOf(t, asA)).rest;
    expect(row!.uploads).toBe(3);
    // Counted as received: past the quota by at most the chunk that passed it, never the whole file unread.
    expect(row!.uploadBytes).toBeGreaterThan(limit);
    expect(row!.uploadBytes).toBeLessThanOrEqual(3 * SIZE);
    expect(await leftOver()).toEqual([]);

    // Nothing is left: even a small upload is refused before it is read.
    const small = await upload(asA, wavAt(150).subarray(0, 1000), 'Small');
    expect(small.status).toBe(429);
    await request(t.app).get('/healthz').expect(200);
  });

  it('when a file comes over GraphQL (analyseUpload), then it counts against the same quota: past UPLOAD_QUOTA_BYTES_PER_DAY the field fails with UPLOAD_QUOTA_EXCEEDED and nothing is left behind', async () => {
    t = await createTestApp({ env: { API_KEYS: KEY_A, UPLOAD_QUOTA_FILES_PER_DAY: '0', UPLOAD_QUOTA_BYTES_PER_DAY: String(Math.floor(1.5 * SIZE)) } });
    const boundary = '----trackgraph-quota-boundary';
    const mutation = 'mutation Upload($file: Upload!, $track: String) { analyseUpload(file: $file, artist: "Quota", track: $track) { status } }';
    const body = (file: Buffer, track: string): Buffer =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: mutation, variables: { file: null, track } })}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n${JSON.stringify({ 0: ['variables.file'] })}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="q.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const post = (file: Buffer, track: string) =>
      request(t.app).post('/graphql').set(asA).set('Apollo-Require-Preflight', 'true').set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body(file, track));
    const first = await post(wavAt(100), 'GraphOne').expect(200);
    expect(first.body.data.analyseUpload).toEqual({ status: 'DONE' });
    const second = await post(wavAt(110), 'GraphTwo');
    expect(second.body.data?.analyseUpload ?? null).toBeNull();
    expect(second.body.errors?.[0]?.extensions?.code).toBe('UPLOAD_QUOTA_EXCEEDED');
    expect(await leftOver()).toEqual([]);
    const { graphql } = await usageOf(t, asA);
    // The refused file was received whole before the field ran (a multipart body is read to its
    // end first), so its bytes count, as a chunked REST body's received bytes do.
    expect(graphql).toEqual([{ keyId: 'env:1', uploads: 2, uploadBytes: 2 * SIZE }]);
  });

  it('when the quota settings are 0, then uploads are not limited but still counted', async () => {
    t = await createTestApp({ env: { API_KEYS: KEY_A, UPLOAD_QUOTA_FILES_PER_DAY: '0', UPLOAD_QUOTA_BYTES_PER_DAY: '0' } });
    for (const bpm of [100, 110, 130]) await upload(asA, wavAt(bpm), `Free${bpm}`).expect(200);
    expect((await usageOf(t, asA)).graphql).toEqual([{ keyId: 'env:1', uploads: 3, uploadBytes: 3 * SIZE }]);
  });
});
