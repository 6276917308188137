import { watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { encodeWav } from '../../../measure/audio/audio-signals';
import { clickTrack, SAMPLE_RATE } from '../../../measure/audio/signals';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const wav = Buffer.from(encodeWav([clickTrack({ bpm: 120, seconds: 8 })], SAMPLE_RATE));
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000, 7)]);
const MAX = 1024 * 1024;
const BOUNDARY = '----trackgraph-test-boundary';

const UPLOAD = 'mutation Upload($file: Upload!, $artist: String, $track: String) { analyseUpload(file: $file, artist: $artist, track: $track) { trackKey status analysis { trackKey artist trackName tempo } } }';
const BY_URL = 'mutation ByUrl($url: String!) { analyseUrl(url: $url) { trackKey status analysis { artist trackName tempo } } }';

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

/** A multipart body written byte by byte, as curl -F would send it. */
function multipart(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`), p.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** The spec's three parts: operations (the file variable null), map, the file. */
function uploadBody(file: Buffer, filename: string, variables: Record<string, unknown> = {}): Buffer {
  return multipart([
    { name: 'operations', value: JSON.stringify({ query: UPLOAD, variables: { file: null, ...variables } }) },
    { name: 'map', value: JSON.stringify({ 0: ['variables.file'] }) },
    { name: '0', filename, type: 'audio/wav', data: file },
  ]);
}

describe('GraphQL uploads: analyseUpload (multipart request spec) and analyseUrl', () => {
  let t: TestApp;
  let remote: http.Server;
  let remoteUrl: string;
  beforeAll(async () => {
    remote = http.createServer((req, res) => {
      if (req.url === '/music/Web%20Band%20-%20Online.wav') {
        res.writeHead(200, { 'Content-Type': 'audio/wav' });
        res.end(wav);
        return;
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    // The test key is a read key (API_KEYS): analysis, not administration.
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(MAX), OUTBOUND_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    remote.closeAllConnections();
    await new Promise<void>((resolve) => remote.close(() => resolve()));
  });

  const leftOver = async (): Promise<string[]> => readdir(path.join(t.dir, 'data', 'uploads'));
  const post = (body: Buffer, preflight = true) => {
    const r = request(t.app).post('/graphql').set(t.auth).set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`);
    return (preflight ? r.set('Apollo-Require-Preflight', 'true') : r).send(body);
  };

  it('when a multipart request comes without a preflighted header, then 400 (CSRF) before the file is read: nothing analysed, nothing written', async () => {
    const analyse = jest.spyOn(t.container.engine, 'analyse');
    try {
      const res = await post(uploadBody(wav, 'Csrf - Attempt.wav'), false).expect(400);
      expect(res.body.errors[0].extensions.code).toBe('INVALID_ARGUMENT');
      expect(res.body.errors[0].message).toMatch(/Apollo-Require-Preflight/);
      expect(analyse).not.toHaveBeenCalled();
    } finally {
      analyse.mockRestore();
    }
    expect(await leftOver()).toEqual([]);
    const stored = await request(t.app).get(`/api/audio/analysis/${trackKey('Csrf', 'Attempt')}`).set(t.auth);
    expect(stored.status).not.toBe(200);
  });

  it('when a multipart request has no key, then 401 before its file is read', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
      .set('Apollo-Require-Preflight', 'true')
      .send(uploadBody(wav, 'No - Key.wav'))
      .expect(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await leftOver()).toEqual([]);
  });

  it('when the request carries Apollo-Require-Preflight, then the file is analysed, named by its file name, DONE with its analysis; nothing left behind', async () => {
    const res = await post(uploadBody(wav, 'Graph Band - Multipart.wav')).expect(200);
    expect(res.body.errors).toBeUndefined();
    const key = trackKey('Graph Band', 'Multipart');
    expect(res.body.data.analyseUpload).toMatchObject({ trackKey: key, status: 'DONE', analysis: { trackKey: key, artist: 'Graph Band', trackName: 'Multipart' } });
    expect(Math.abs((res.body.data.analyseUpload.analysis as { tempo: number }).tempo - 120)).toBeLessThan(2);
    expect(await leftOver()).toEqual([]);
    // The same analysis as the query returns.
    const q = await request(t.app).post('/graphql').set(t.auth).send({ query: `{ analysis(trackKey: "${key}") { trackKey artist trackName tempo } }` }).expect(200);
    expect(q.body.data.analysis).toEqual(res.body.data.analyseUpload.analysis);
  });

  it('when a file is uploaded, then it is written once: the upload takes over the request\'s file rather than copying it', async () => {
    const dir = path.join(t.dir, 'data', 'uploads');
    const written = new Set<string>();
    const watcher = watch(dir, (_event, name) => {
      if (name?.endsWith('.part')) written.add(name);
    });
    try {
      const res = await post(uploadBody(wav, 'Graph Band - Written Once.wav')).expect(200);
      expect(res.body.data.analyseUpload).toMatchObject({ status: 'DONE' });
      // Let the last events arrive.
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      watcher.close();
    }
    expect(written.size).toBe(1);
    expect(await leftOver()).toEqual([]);
  });

  it('when artist and track are variables, then they name the track (x-apollo-operation-name is a preflighted header too)', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set(t.auth)
      .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
      .set('X-Apollo-Operation-Name', 'Upload')
      .send(uploadBody(wav, 'x.wav', { artist: 'Var Artist', track: 'Var Track' }))
      .expect(200);
    expect(res.body.data.analyseUpload).toMatchObject({ trackKey: trackKey('Var Artist', 'Var Track'), status: 'DONE' });
  });

  it('when the file is an image, then the field fails with UNSUPPORTED_MEDIA and nothing is left behind', async () => {
    const res = await post(uploadBody(PNG, 'cover.wav'));
    expect(res.body.errors[0].extensions.code).toBe('UNSUPPORTED_MEDIA');
    expect(res.body.data).toBeNull();
    expect(await leftOver()).toEqual([]);
  });

  it('when the file is larger than UPLOAD_MAX_BYTES, then 413 PAYLOAD_TOO_LARGE and nothing is left behind', async () => {
    const res = await post(uploadBody(Buffer.concat([wav.subarray(0, 44), Buffer.alloc(MAX + 10)]), 'big.wav'));
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await leftOver()).toEqual([]);
  });

  it.each([
    ['map before operations', [{ name: 'map', value: '{"0":["variables.file"]}' }, { name: 'operations', value: JSON.stringify({ query: UPLOAD, variables: { file: null } }) }]],
    ['operations that are not JSON', [{ name: 'operations', value: '{query' }, { name: 'map', value: '{}' }]],
    ['a map into the query', [{ name: 'operations', value: JSON.stringify({ query: UPLOAD, variables: { file: null } }) }, { name: 'map', value: '{"0":["query"]}' }]],
    ['a map onto a prototype', [{ name: 'operations', value: JSON.stringify({ query: UPLOAD, variables: { file: null } }) }, { name: 'map', value: '{"0":["variables.__proto__.x"]}' }]],
    ['a file the map names but that is not sent', [{ name: 'operations', value: JSON.stringify({ query: UPLOAD, variables: { file: null } }) }, { name: 'map', value: '{"0":["variables.file"]}' }]],
  ] as [string, Part[]][])('when the request has %s, then 400 INVALID_ARGUMENT', async (_name, parts) => {
    const res = await post(multipart(parts)).expect(400);
    expect(res.body.errors[0].extensions.code).toBe('INVALID_ARGUMENT');
    expect(await leftOver()).toEqual([]);
  });

  it('when the Upload variable comes as JSON (no file part), then the variable is refused', async () => {
    const res = await request(t.app).post('/graphql').set(t.auth).send({ query: UPLOAD, variables: { file: 'song.wav' } });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('analyseUrl: the audio at a URL is fetched, named by the URL\'s file name and analysed', async () => {
    const res = await request(t.app).post('/graphql').set(t.auth).send({ query: BY_URL, variables: { url: `${remoteUrl}/music/Web%20Band%20-%20Online.wav` } }).expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.analyseUrl).toMatchObject({ trackKey: trackKey('Web Band', 'Online'), status: 'DONE', analysis: { artist: 'Web Band', trackName: 'Online' } });
  });

  it.each([
    ['an ftp URL', 'ftp://example.org/a.mp3', 'INVALID_ARGUMENT'],
    ['a URL that answers 404', '/missing.wav', 'URL_UNREACHABLE'],
  ])('analyseUrl with %s: the field fails with %s', async (_name, url, code) => {
    const res = await request(t.app).post('/graphql').set(t.auth).send({ query: BY_URL, variables: { url: url.startsWith('/') ? `${remoteUrl}${url}` : url } });
    expect(res.body.errors[0].extensions.code).toEqual(code === 'INVALID_ARGUMENT' ? expect.stringMatching(/INVALID_ARGUMENT|BAD_USER_INPUT/) : code);
  });
});
