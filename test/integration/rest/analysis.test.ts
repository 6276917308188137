import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { AppError } from '../../../src/core/errors';
import { keyString } from '../../../src/core/music';
import { trackKey } from '../../../src/core/track-key';
import { ENGINE_ID } from '../../../src/engine/version';
import { analysisSchema } from '../../../src/http/rest/schemas';
import { FakeEngine, featuresFromBytes } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

// The contract's fields and the registry's additive ones (acousticness, since engine 11).
const CONTRACT_FIELDS = [
  'artist', 'trackKey', 'trackName', 'duration_ms', 'tempo', 'key', 'keyString', 'mode', 'timeSignature',
  'energy', 'liveness', 'danceability', 'instrumentalness', 'speechiness', 'acousticness', 'valence', 'arousal',
  'approachability', 'engagement', 'mood', 'meta',
].sort();

async function library(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money');
  await writeFile(path.join(dir, 'Pink Floyd - Cymbaline.mp3'), 'bytes of cymbaline');
  await writeFile(path.join(dir, 'Broken Band - Noise.mp3'), 'not audio');
}

describe('GET /api/audio/analysis/:trackKey', () => {
  let t: TestApp;
  let engine: FakeEngine;

  beforeEach(async () => {
    engine = new FakeEngine();
    t = await createTestApp({ engine, prepareLibrary: library });
  });
  afterEach(() => t.close());

  const analysis = (key: string, query = '') => request(t.app).get(`/api/audio/analysis/${key}${query}`).set(t.auth);
  const search = (query: string) => request(t.app).get(`/api/audio/search?${query}`).set(t.auth);

  it('when no source knows the key and nothing was searched, then 404 TRACK_NOT_FOUND telling to search first', async () => {
    const res = await analysis(trackKey('Nobody', 'Nothing')).expect(404);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'TRACK_NOT_FOUND', message: expect.stringMatching(/search for the track first.*or pass artist and track/) },
    });
    expect(engine.analyseCalls).toBe(0);
  });

  it("when the library knows the key, it is analysed without a search (another node's, or an expired one)", async () => {
    const res = await analysis(trackKey('Pink Floyd', 'Money')).expect(200);
    expect(res.body.data).toMatchObject({ artist: 'Pink Floyd', trackName: 'Money', duration_ms: 1000 + 'bytes of money'.length });
    expect(engine.analyseCalls).toBe(1);
  });

  it.each(['bc24aaa5a97c70e', 'bc24aaa5a97c70edd', 'zz24aaa5a97c70ed', 'money'])(
    'when the key is %s (not 16 hex), then 400 INVALID_ARGUMENT',
    async (key) => {
      const res = await analysis(key).expect(400);
      expect(res.body.error.code).toBe('INVALID_ARGUMENT');
    },
  );

  it('a stored analysis carries a strong ETag: If-None-Match naming it gets 304 without a body, another tag 200', async () => {
    await search('track=Money&artist=Pink+Floyd').expect(200);
    const first = await analysis('bc24aaa5a97c70ed').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.text));

    const again = await analysis('bc24aaa5a97c70ed').set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    await analysis('bc24aaa5a97c70ed').set('If-None-Match', `"other", W/${etag}`).expect(304);
    const changed = await analysis('bc24aaa5a97c70ed').set('If-None-Match', '"other"').expect(200);
    expect(changed.body).toEqual(first.body);

    // Another stored analysis has another tag; HEAD answers the headers only.
    await search('track=Cymbaline&artist=Pink+Floyd').expect(200);
    const other = await analysis('f63116f780b3b1eb').expect(200);
    expect(other.headers.etag).not.toBe(etag);
    const head = await request(t.app).head('/api/audio/analysis/bc24aaa5a97c70ed').set(t.auth).expect(200);
    expect(head.headers.etag).toBe(etag);
    expect(head.text ?? '').toBe('');
  });

  it('after a search, analyses the file, answers every contract field, and serves the store afterwards', async () => {
    await search('track=Money&artist=Pink+Floyd').expect(200);
    const first = await analysis('bc24aaa5a97c70ed').expect(200);
    expect(first.body.success).toBe(true);
    const data = first.body.data;
    expect(Object.keys(data).sort()).toEqual(CONTRACT_FIELDS);
    expect(data).toMatchObject({ artist: 'Pink Floyd', trackName: 'Money', trackKey: 'bc24aaa5a97c70ed' });
    expect(data.meta).toEqual({ artist: 'Pink Floyd', track: 'Money' });
    expect(data.keyString).toBe(keyString(data.key, data.mode));
    expect(Object.keys(data.mood).sort()).toEqual(['aggressive', 'happy', 'relaxed', 'sad']);
    expect(engine.analyseCalls).toBe(1);

    const second = await analysis('bc24aaa5a97c70ed').expect(200);
    expect(second.body).toEqual(first.body);
    expect(engine.analyseCalls).toBe(1);
  });

  it('adds the tagger’s tags to an analysis the models made, as the published schema has them, and nothing to one without', async () => {
    const money = { trackKey: trackKey('Pink Floyd', 'Money'), artist: 'Pink Floyd', trackName: 'Money', analysedAt: '2026-01-01T00:00:00.000Z', source: 'library' };
    const features = featuresFromBytes(new TextEncoder().encode('bytes of money'));
    const tags = [{ name: 'rock', probability: 0.412 }, { name: '70s', probability: 0.2 }, { name: 'Hip-Hop', probability: 0.001 }];
    await t.container.store.save({ ...money, features: { ...features, tags, engine: `${ENGINE_ID} models:musicnn-msd-2/r32` } });
    const res = await analysis(money.trackKey).expect(200);
    expect(res.headers['trackgraph-analysis-method']).toBe('models:musicnn-msd-2/r32');
    expect(Object.keys(res.body.data).sort()).toEqual([...CONTRACT_FIELDS, 'tags'].sort());
    expect(res.body.data.tags).toEqual(tags);
    expect(analysisSchema.safeParse(res.body.data).success).toBe(true);
    // Out of the published schema's range, the schema refuses it: the tests of the document hold it to something.
    expect(analysisSchema.safeParse({ ...res.body.data, tags: [{ name: 'rock', probability: 1.5 }] }).success).toBe(false);

    await search('track=Cymbaline&artist=Pink+Floyd').expect(200);
    const signal = await analysis(trackKey('Pink Floyd', 'Cymbaline')).expect(200);
    expect(signal.body.data).not.toHaveProperty('tags');
  });

  it('analyses the bytes of the file the key names', async () => {
    await search('track=Cymbaline&artist=Pink+Floyd').expect(200);
    await search('track=Money&artist=Pink+Floyd').expect(200);
    const money = (await analysis(trackKey('Pink Floyd', 'Money')).expect(200)).body.data;
    const cymbaline = (await analysis(trackKey('Pink Floyd', 'Cymbaline')).expect(200)).body.data;
    expect(money.duration_ms).toBe(1000 + 'bytes of money'.length);
    expect(cymbaline.duration_ms).toBe(1000 + 'bytes of cymbaline'.length);
  });

  it('with artist and track that hash to the key, resolves the track without a prior search', async () => {
    const res = await analysis('f63116f780b3b1eb', '?artist=Pink+Floyd&track=Cymbaline').expect(200);
    expect(res.body.data.trackName).toBe('Cymbaline');
  });

  it('when artist and track do not hash to the key, then 400 INVALID_ARGUMENT', async () => {
    const res = await analysis(trackKey('Nobody', 'Nothing'), '?artist=Pink+Floyd&track=Money').expect(400);
    expect(res.body.error.message).toMatch(/do not match trackKey/);
  });

  it('when artist and track hash to the key but no source has it, then 404 TRACK_NOT_FOUND', async () => {
    const key = trackKey('Nobody', 'Nothing');
    const res = await analysis(key, '?artist=Nobody&track=Nothing').expect(404);
    expect(res.body.error.code).toBe('TRACK_NOT_FOUND');
  });

  it('accepts an uppercase key as the same key', async () => {
    await search('track=Money&artist=Pink+Floyd').expect(200);
    const res = await analysis('BC24AAA5A97C70ED').expect(200);
    expect(res.body.data.trackKey).toBe('bc24aaa5a97c70ed');
  });

  it('shares one analysis between concurrent requests for one key', async () => {
    engine.delayMs = 200;
    await search('track=Money&artist=Pink+Floyd').expect(200);
    const answers = await Promise.all(Array.from({ length: 10 }, () => analysis('bc24aaa5a97c70ed')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(engine.analyseCalls).toBe(1);
  });

  it('when the audio cannot be decoded, then 422 AUDIO_UNDECODABLE and the server keeps serving', async () => {
    engine.failWith = new AppError('AUDIO_UNDECODABLE', 'the file is not audio in a known format');
    await search('track=Noise&artist=Broken+Band').expect(200);
    const res = await analysis(trackKey('Broken Band', 'Noise')).expect(422);
    expect(res.body.error).toEqual({ code: 'AUDIO_UNDECODABLE', message: 'the file is not audio in a known format' });
    engine.failWith = undefined;
    await search('track=Money&artist=Pink+Floyd').expect(200);
    await analysis('bc24aaa5a97c70ed').expect(200);
    expect(await t.container.store.get(trackKey('Broken Band', 'Noise'))).toBeUndefined();
  });

  it('when an unexpected error happens, then 500 INTERNAL without details', async () => {
    engine.failWith = Object.assign(new Error('secret internals at /srv/x.ts:12'), {}) as AppError;
    await search('track=Money&artist=Pink+Floyd').expect(200);
    const res = await analysis('bc24aaa5a97c70ed').expect(500);
    expect(res.body).toEqual({ success: false, error: { code: 'INTERNAL', message: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toMatch(/secret internals|x\.ts/);
  });
});

describe('analysis across a restart', () => {
  it('answers identically from the store after the process restarts', async () => {
    const engine = new FakeEngine();
    const first = await createTestApp({ engine, prepareLibrary: library });
    let before;
    try {
      await request(first.app).get('/api/audio/search?track=Money&artist=Pink+Floyd').set(first.auth).expect(200);
      before = (await request(first.app).get('/api/audio/analysis/bc24aaa5a97c70ed').set(first.auth).expect(200)).body;
    } finally {
      await first.container.close();
    }
    const engine2 = new FakeEngine();
    const second = await createTestApp({ engine: engine2, dir: first.dir });
    try {
      const after = (await request(second.app).get('/api/audio/analysis/bc24aaa5a97c70ed').set(second.auth).expect(200)).body;
      expect(after).toEqual(before);
      expect(engine2.analyseCalls).toBe(0);
    } finally {
      await second.close();
      await rm(first.dir, { recursive: true, force: true });
    }
  });
});

describe('a slow analysis', () => {
  it('answers 202 with Retry-After while it runs, then 200 with the result', async () => {
    const engine = new FakeEngine();
    engine.delayMs = 600;
    const t = await createTestApp({ engine, prepareLibrary: library, env: { ANALYSIS_WAIT_MS: '50' } });
    try {
      await request(t.app).get('/api/audio/search?track=Money&artist=Pink+Floyd').set(t.auth).expect(200);
      const pending = await request(t.app).get('/api/audio/analysis/bc24aaa5a97c70ed').set(t.auth).expect(202);
      expect(pending.body).toMatchObject({ success: true, data: null, status: 'processing', queuePosition: 0 });
      expect(Number(pending.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Asked again as a client told Retry-After would, until the analysis is done (600 ms of engine
      // time; longer on a loaded machine): 202 meanwhile, never another status.
      let done = await request(t.app).get('/api/audio/analysis/bc24aaa5a97c70ed').set(t.auth);
      for (const deadline = Date.now() + 20_000; done.status === 202 && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 100));
        done = await request(t.app).get('/api/audio/analysis/bc24aaa5a97c70ed').set(t.auth);
      }
      expect(done.status).toBe(200);
      expect(done.body.data.trackKey).toBe('bc24aaa5a97c70ed');
      expect(engine.analyseCalls).toBe(1);
    } finally {
      await t.close();
    }
  });
});
