import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const image = (file: string): Uint8Array => new Uint8Array(readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'images', file)));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Library files whose embedded pictures declare `mime` over `data` (a tag can say anything). */
const PICTURES: Record<string, { mime: string; data: Uint8Array }> = {
  png: { mime: 'image/png', data: image('cover.png') },
  jpeg: { mime: 'image/jpeg', data: image('cover.jpg') },
  gif: { mime: 'image/gif', data: image('cover.gif') },
  webp: { mime: 'image/webp', data: image('cover.webp') },
  avif: { mime: 'image/avif', data: image('cover.avif') },
  'jpeg declared png': { mime: 'image/png', data: image('cover.jpg') },
  'png declared jpg': { mime: 'image/jpg', data: image('cover.png') },
  'html declared html': { mime: 'text/html', data: text('<!doctype html><script>fetch("/api/audio/search?track=x")</script>') },
  'html declared png': { mime: 'image/png', data: text('<html><body onload="alert(document.cookie)"></body></html>') },
  svg: { mime: 'image/svg+xml', data: text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') },
  empty: { mime: 'image/png', data: new Uint8Array(0) },
};

const keyOf = (name: string): string => trackKey('Cover Artist', name);

describe('GET /api/audio/artwork/{trackKey}', () => {
  let t: TestApp;

  beforeAll(async () => {
    const engine = new FakeEngine();
    for (const [name, picture] of Object.entries(PICTURES)) {
      engine.tags.set(`${name}.mp3`, { artist: 'Cover Artist', title: name, picture });
    }
    t = await createTestApp({
      engine,
      prepareLibrary: async (dir) => {
        for (const name of Object.keys(PICTURES)) await writeFile(path.join(dir, `${name}.mp3`), `audio of ${name}`);
      },
    });
  });
  afterAll(() => t.close());

  /** The artwork as an <img> tag loads it: through its signed URL, without a key. */
  const artwork = (name: string) => {
    const url = new URL(t.container.artwork.url(keyOf(name)));
    return request(t.app).get(url.pathname + url.search);
  };

  it.each([
    ['png', 'image/png', 'cover.png'],
    ['jpeg', 'image/jpeg', 'cover.jpg'],
    ['gif', 'image/gif', 'cover.gif'],
    ['webp', 'image/webp', 'cover.webp'],
    ['avif', 'image/avif', 'cover.avif'],
  ])('serves a %s picture as %s, byte for byte', async (name, mime, file) => {
    const res = await artwork(name).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe(mime);
    expect(new Uint8Array(res.body as Buffer)).toEqual(image(file));
  });

  it.each([
    ['jpeg declared png', 'image/jpeg'],
    ['png declared jpg', 'image/png'],
  ])('serves a %s picture with the type its bytes are (%s), not the declared one', async (name, mime) => {
    const res = await artwork(name).expect(200);
    expect(res.headers['content-type']).toBe(mime);
  });

  it.each(['html declared html', 'html declared png', 'svg', 'empty'])(
    'never serves a %s picture: the track’s placeholder PNG is served in its place',
    async (name) => {
      const res = await artwork(name).buffer(true).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(Buffer.from(res.body as Buffer).equals(t.container.artwork.placeholder(keyOf(name)))).toBe(true);
      expect(Buffer.from(res.body as Buffer).toString('latin1')).not.toMatch(/<(html|svg|script)/i);
    },
  );

  it('serves a track without a picture its placeholder: a PNG, the same for the same key, another for another key', async () => {
    const get = async (key: string) => {
      const url = new URL(t.container.artwork.url(key));
      const res = await request(t.app).get(url.pathname + url.search).buffer(true).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
      return Buffer.from(res.body as Buffer);
    };
    const money = trackKey('Pink Floyd', 'Money');
    const first = await get(money);
    expect(first.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((await get(money)).equals(first)).toBe(true);
    expect((await get(trackKey('Pink Floyd', 'Time'))).equals(first)).toBe(false);
    // A picture of its own is kept longer.
    expect((await artwork('png').expect(200)).headers['cache-control']).toBe('private, max-age=86400');
  });

  it('answers a key that is not 16 hex characters 400 INVALID_ARGUMENT', async () => {
    const res = await request(t.app).get('/api/audio/artwork/not-a-key').set(t.auth).expect(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_ARGUMENT' } });
  });

  it('is described in the OpenAPI document with the five types it may answer', async () => {
    type Doc = { paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }> };
    const doc = (await request(t.app).get('/api/openapi.json').expect(200)).body as Doc;
    const artworkOp = doc.paths['/api/audio/artwork/{trackKey}']!.get;
    expect(Object.keys(artworkOp.responses['200']!.content!).sort()).toEqual(['image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp']);
    expect(Object.keys(artworkOp.responses)).toEqual(expect.arrayContaining(['400', '401']));
    // Every key has a picture: its own or its placeholder.
    expect(Object.keys(artworkOp.responses)).not.toContain('404');
  });

  it('refuses a forged signature without a key, and serves the picture with a key', async () => {
    await request(t.app).get(`/api/audio/artwork/${keyOf('png')}?sig=forged`).expect(401);
    await request(t.app).get(`/api/audio/artwork/${keyOf('png')}`).set(t.auth).expect(200).expect('Content-Type', 'image/png');
  });
});
