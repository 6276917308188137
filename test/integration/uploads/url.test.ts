import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { OutboundGuard } from '../../../src/net/outbound.guard';
import { UploadFetcher } from '../../../src/uploads/upload.fetcher';
import { encodeWav } from '../../../measure/audio/audio-signals';
import { clickTrack, SAMPLE_RATE } from '../../../measure/audio/signals';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const wav = Buffer.from(encodeWav([clickTrack({ bpm: 120, seconds: 8 })], SAMPLE_RATE));
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000, 7)]);
const MAX = 1024 * 1024;

/** A fake web server for the audio: each path its own behaviour; `hits` counts the requests it got. */
async function audioServer(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    open.add(res);
    res.on('close', () => open.delete(res));
    const route = (req.url ?? '').split('?')[0];
    if (route === '/files/Tick%20Tock%20-%20From%20The%20Web.wav') {
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': String(wav.length) });
      res.end(wav);
    } else if (route === '/redirect') {
      res.writeHead(302, { Location: '/files/Tick%20Tock%20-%20From%20The%20Web.wav' });
      res.end();
    } else if (route === '/elsewhere') {
      // Redirects to the URL in its query (another origin).
      res.writeHead(302, { Location: new URL(req.url ?? '', 'http://x').searchParams.get('to') ?? '/' });
      res.end();
    } else if (route === '/image.mp3') {
      res.writeHead(200, { 'Content-Type': 'audio/mpeg' });
      res.end(PNG);
    } else if (route === '/huge-declared.wav') {
      // Says it is larger than the limit; sends the header and then waits: nothing more may be read.
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': String(50 * MAX) });
      res.write(wav.subarray(0, 44));
    } else if (route === '/huge-chunked.wav') {
      res.writeHead(200, { 'Content-Type': 'audio/wav' });
      const chunk = Buffer.concat([wav.subarray(0, 44), Buffer.alloc(64 * 1024 - 44)]);
      let sent = 0;
      const pump = (): void => {
        while (sent < 8 * MAX && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    } else if (route === '/slow.wav') {
      // Headers, part of the file, then nothing: the fetch's time limit ends it.
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': String(wav.length) });
      res.write(wav.subarray(0, 1000));
    } else if (route === '/broken.wav') {
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': String(wav.length) });
      res.write(wav.subarray(0, 1000), () => res.destroy());
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('POST /api/audio/analyses with {"url"} (OUTBOUND_ALLOW_PRIVATE: the fake server is on loopback)', () => {
  let t: TestApp;
  let remote: Awaited<ReturnType<typeof audioServer>>;
  beforeAll(async () => {
    remote = await audioServer();
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(MAX), UPLOAD_FETCH_TIMEOUT_MS: '500', OUTBOUND_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
  });

  const leftOver = async (): Promise<string[]> => readdir(path.join(t.dir, 'data', 'uploads'));
  const byUrl = (body: unknown) => request(t.app).post('/api/audio/analyses').set(t.auth).set('Content-Type', 'application/json').send(JSON.stringify(body));
  const alive = async (): Promise<void> => {
    await request(t.app).get('/healthz').expect(200);
  };

  it('when the URL serves a WAV, then 200 with its analysis named by the URL\'s file name, Location naming it, nothing left behind', async () => {
    const res = await byUrl({ url: `${remote.url}/files/Tick%20Tock%20-%20From%20The%20Web.wav` }).expect(200);
    const key = trackKey('Tick Tock', 'From The Web');
    expect(res.headers.location).toBe(`/api/audio/analysis/${key}`);
    expect(res.body.data).toMatchObject({ trackKey: key, artist: 'Tick Tock', trackName: 'From The Web' });
    expect(Math.abs((res.body.data as { tempo: number }).tempo - 120)).toBeLessThan(2);
    expect(await leftOver()).toEqual([]);
  });

  it('when artist and track are given and the URL redirects, then the redirect is followed and the fields name the track, the same bytes not analysed again', async () => {
    const analyse = jest.spyOn(t.container.engine, 'analyse');
    try {
      const res = await byUrl({ url: `${remote.url}/redirect`, artist: 'Given Artist', track: 'Given Track' }).expect(200);
      expect(res.body.data).toMatchObject({ trackKey: trackKey('Given Artist', 'Given Track'), artist: 'Given Artist', trackName: 'Given Track' });
      expect(analyse).not.toHaveBeenCalled();
    } finally {
      analyse.mockRestore();
    }
    expect(remote.hits).toContain('/redirect');
  });

  it.each([
    ['not a URL', { url: 'song.mp3' }],
    ['an ftp URL', { url: 'ftp://example.org/song.mp3' }],
    ['a file URL', { url: 'file:///etc/passwd' }],
    ['credentials in the URL', { url: 'http://user:secret@127.0.0.1/song.mp3' }],
    ['no url', { artist: 'A' }],
    ['a url that is a number', { url: 42 }],
    ['an artist that is not a string', { url: 'http://127.0.0.1/x.mp3', artist: ['A'] }],
  ])('when the body has %s, then 400 INVALID_ARGUMENT and nothing is fetched', async (_name, body) => {
    const before = remote.hits.length;
    const res = await byUrl(body).expect(400);
    expect(res.body).toEqual({ success: false, error: { code: 'INVALID_ARGUMENT', message: expect.any(String) } });
    expect(res.body.error.message).not.toContain('secret');
    expect(remote.hits.length).toBe(before);
  });

  it('when the JSON body is not an object, then 400 INVALID_ARGUMENT', async () => {
    expect((await byUrl(['http://x/y.mp3']).expect(400)).body.error.code).toBe('INVALID_ARGUMENT');
    const res = await request(t.app).post('/api/audio/analyses').set(t.auth).set('Content-Type', 'application/json').send('{"url":').expect(400);
    expect(res.body.error.code).toBe('INVALID_ARGUMENT');
  });

  it('when the URL answers 404, then 422 URL_UNREACHABLE saying so', async () => {
    const res = await byUrl({ url: `${remote.url}/missing.mp3` }).expect(422);
    expect(res.body.error).toEqual({ code: 'URL_UNREACHABLE', message: expect.stringContaining('404') });
  });

  it('when nothing listens at the URL, then 422 URL_UNREACHABLE', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const res = await byUrl({ url: `http://127.0.0.1:${port}/song.wav` }).expect(422);
    expect(res.body.error.code).toBe('URL_UNREACHABLE');
  });

  it('when the URL serves an image called .mp3, then 415 UNSUPPORTED_MEDIA, nothing left behind', async () => {
    const res = await byUrl({ url: `${remote.url}/image.mp3` }).expect(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA');
    expect(await leftOver()).toEqual([]);
  });

  it('when the remote declares more than UPLOAD_MAX_BYTES, then 413 PAYLOAD_TOO_LARGE before reading it', async () => {
    const res = await byUrl({ url: `${remote.url}/huge-declared.wav` }).expect(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await leftOver()).toEqual([]);
  });

  it('when a chunked answer runs past UPLOAD_MAX_BYTES, then 413 and reading stops, nothing left behind, the server up', async () => {
    const res = await byUrl({ url: `${remote.url}/huge-chunked.wav` }).expect(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await leftOver()).toEqual([]);
    await alive();
  });

  it('when the remote stops sending, then 422 URL_UNREACHABLE naming the time limit, nothing left behind', async () => {
    const res = await byUrl({ url: `${remote.url}/slow.wav` }).expect(422);
    expect(res.body.error).toEqual({ code: 'URL_UNREACHABLE', message: expect.stringContaining('UPLOAD_FETCH_TIMEOUT_MS') });
    expect(await leftOver()).toEqual([]);
    await alive();
  });

  it('when the remote breaks the connection mid-file, then 422 URL_UNREACHABLE, nothing left behind', async () => {
    const res = await byUrl({ url: `${remote.url}/broken.wav` }).expect(422);
    expect(res.body.error.code).toBe('URL_UNREACHABLE');
    expect(await leftOver()).toEqual([]);
    await alive();
  });
});

describe('POST /api/audio/analyses with {"url"}: only public addresses (OUTBOUND_ALLOW_PRIVATE unset)', () => {
  let t: TestApp;
  let remote: Awaited<ReturnType<typeof audioServer>>;
  beforeAll(async () => {
    remote = await audioServer();
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(MAX) } });
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
  });

  it.each([
    ['a loopback address', (base: string) => `${base}/files/Tick%20Tock%20-%20From%20The%20Web.wav`],
    ['localhost', (base: string) => base.replace('127.0.0.1', 'localhost') + '/files/x.wav'],
    ['an IPv4-mapped loopback address', (base: string) => base.replace('127.0.0.1', '[::ffff:127.0.0.1]') + '/files/x.wav'],
  ])('when the URL leads to %s, then 422 URL_REFUSED naming no address, and the server there gets no request', async (_name, url) => {
    const res = await request(t.app).post('/api/audio/analyses').set(t.auth).send({ url: url(remote.url) }).expect(422);
    expect(res.body).toEqual({ success: false, error: { code: 'URL_REFUSED', message: expect.any(String) } });
    expect(res.body.error.message).not.toMatch(/127\.0\.0\.1|::1|loopback address/);
    expect(remote.hits).toEqual([]);
  });
});

describe('UploadFetcher: every redirect hop is checked by the guard', () => {
  let t: TestApp;
  let trusted: Awaited<ReturnType<typeof audioServer>>;
  let other: Awaited<ReturnType<typeof audioServer>>;
  let guard: OutboundGuard;
  let fetcher: UploadFetcher;
  beforeAll(async () => {
    trusted = await audioServer();
    other = await audioServer();
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(MAX) } });
    // The first origin stands for a public server (a trusted origin is connected to wherever it
    // resolves); the origin it redirects to is judged by its address, loopback, as any other.
    guard = new OutboundGuard({ allowPrivate: false, trustedOrigins: [trusted.url] });
    fetcher = new UploadFetcher(t.container.uploads, guard, { timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await guard.close();
    await t.close();
    await trusted.close();
    await other.close();
  });

  it('when the first origin is reachable, then its audio is analysed (the control)', async () => {
    const result = await fetcher.analyseUrl({ url: `${trusted.url}/files/Tick%20Tock%20-%20From%20The%20Web.wav` });
    expect(result.trackKey).toBe(trackKey('Tick Tock', 'From The Web'));
  });

  it('when it redirects to a loopback address, then URL_REFUSED and the second server gets no request', async () => {
    const target = `${other.url}/files/Tick%20Tock%20-%20From%20The%20Web.wav`;
    await expect(fetcher.analyseUrl({ url: `${trusted.url}/elsewhere?to=${encodeURIComponent(target)}` })).rejects.toMatchObject({ code: 'URL_REFUSED' });
    expect(trusted.hits.some((h) => h.startsWith('/elsewhere'))).toBe(true);
    expect(other.hits).toEqual([]);
  });
});
