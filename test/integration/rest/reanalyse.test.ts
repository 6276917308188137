import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { ANALYSIS_REPLACED, type AnalysisEvent } from '../../../src/core/analysis-events';
import { trackKey } from '../../../src/core/track-key';
import type { StoredAnalysis } from '../../../src/core/types';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const ADMIN_KEY = 'admin-key-0123456789';
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
const MONEY = trackKey('Pink Floyd', 'Money');
const TIME = trackKey('Pink Floyd', 'Time');
const GRAPHQL = JSON.stringify({ query: 'query($k: String!) { analysis(trackKey: $k) { trackKey tempo } }', variables: { k: MONEY } });

interface Job {
  id: string;
  state: string;
  dryRun: boolean;
  total: number;
  done: number;
  replaced: number;
  unavailable: { trackKey: string; code: string }[];
  failed: unknown[];
  byEngine: Record<string, number>;
  started: boolean;
}

/** An analysis as an older engine stored it: its tempo (1) is one the fake engine never gives. */
function olderAnalysis(key: string, trackName: string): StoredAnalysis {
  return {
    trackKey: key,
    artist: 'Pink Floyd',
    trackName,
    analysedAt: '2020-01-01T00:00:00.000Z',
    source: 'library',
    features: {
      durationMs: 1000,
      tempo: 1,
      key: 0,
      mode: 1,
      timeSignature: 4,
      loudness: -10,
      energy: 0.5,
      liveness: 0.5,
      speechiness: 0.5,
      acousticness: 0.5,
      instrumentalness: 0.5,
      danceability: 0.5,
      valence: 0.5,
      mood: { happy: 0.5, sad: 0.5, aggressive: 0.5, relaxed: 0.5, party: 0.5, acoustic: 0.5, electronic: 0.5 },
      confidence: { tempo: 0.5, key: 0.5, mode: 0.5, timeSignature: 0.5 },
      timeline: { beats: [], bars: [], sections: [] },
      engine: 'trackgraph-engine/1',
    } as unknown as StoredAnalysis['features'],
  };
}

describe('re-analysis: POST /api/admin/reanalyse, and every cache of a replaced analysis', () => {
  let t: TestApp;
  let engine: FakeEngine;

  beforeEach(async () => {
    engine = new FakeEngine();
    t = await createTestApp({
      engine,
      env: { ADMIN_API_KEYS: ADMIN_KEY },
      // Money's file is in the library; Time's is not (its audio is gone).
      prepareLibrary: (dir) => writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of Money'),
    });
    const stored = await t.container.store.save(olderAnalysis(MONEY, 'Money'));
    expect(stored).toBe(true);
    await t.container.store.save(olderAnalysis(TIME, 'Time'));
  });
  afterEach(() => t.close());

  const graphql = () => request(t.app).post('/graphql').set(t.auth).set('Content-Type', 'application/json').send(GRAPHQL).expect(200);

  it('when a read key asks, then 403 FORBIDDEN and nothing is started', async () => {
    const res = await request(t.app).post('/api/admin/reanalyse').set(t.auth).send({}).expect(403);
    expect(res.body).toEqual({ success: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('admin key') } });
    await request(t.app).get('/api/admin/reanalyse/rea_x').set(t.auth).expect(403);
    expect(engine.analyseCalls).toBe(0);
  });

  it('when the body is not understood, then 400 INVALID_ARGUMENT', async () => {
    const bad = await request(t.app).post('/api/admin/reanalyse').set(admin).send({ olderThan: 'yesterday' }).expect(400);
    expect(bad.body.error.code).toBe('INVALID_ARGUMENT');
    const notBoolean = await request(t.app).post('/api/admin/reanalyse').set(admin).send({ dryRun: 'yes' }).expect(400);
    expect(notBoolean.body.error.code).toBe('INVALID_ARGUMENT');
    const unknown = await request(t.app).get('/api/admin/reanalyse/rea_unknown').set(admin).expect(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });

  it('a dry run counts what would be redone and changes nothing', async () => {
    const started = await request(t.app).post('/api/admin/reanalyse').set(admin).send({ dryRun: true }).expect(202);
    await t.container.reanalyse.idle();
    const job = (await request(t.app).get(`/api/admin/reanalyse/${(started.body.data as Job).id}`).set(admin).expect(200)).body.data as Job;
    expect(job).toMatchObject({ state: 'done', dryRun: true, total: 2, done: 0, replaced: 0, byEngine: { 'trackgraph-engine/1': 2 } });
    expect(engine.analyseCalls).toBe(0);
    expect((await t.container.store.get(MONEY))!.features.tempo).toBe(1);
  });

  it('replaces the analysis: REST gives the new body with a new ETag (the old one no longer gets 304), GraphQL the new values', async () => {
    const before = await request(t.app).get(`/api/audio/analysis/${MONEY}`).set(t.auth).expect(200);
    const etagA = before.headers.etag as string;
    expect(before.body.data.tempo).toBe(1);
    expect(before.headers['trackgraph-engine']).toBe('trackgraph-engine/1');
    await request(t.app).get(`/api/audio/analysis/${MONEY}`).set(t.auth).set('If-None-Match', etagA).expect(304);
    // GraphQL's response cache and edge cache hold the answer now (a byte-identical repeat).
    expect((await graphql()).body.data.analysis.tempo).toBe(1);
    expect((await graphql()).body.data.analysis.tempo).toBe(1);
    const heard: AnalysisEvent[] = [];
    const stop = t.container.events.subscribe((event) => void heard.push(event));

    const started = await request(t.app).post('/api/admin/reanalyse').set(admin).send({}).expect(202);
    const id = (started.body.data as Job).id;
    expect(started.headers.location).toBe(`/api/admin/reanalyse/${id}`);
    expect(started.headers['cache-control']).toBe('no-store');
    expect(started.body.data.started).toBe(true);
    await t.container.reanalyse.idle();
    stop();
    const job = (await request(t.app).get(`/api/admin/reanalyse/${id}`).set(admin).expect(200)).body.data as Job;
    expect(job).toMatchObject({ state: 'done', total: 2, done: 2, replaced: 1, failed: [] });
    expect(job.unavailable).toEqual([expect.objectContaining({ trackKey: TIME, code: 'NO_AUDIO_SOURCE' })]);
    expect(heard.map((e) => [e.type, e.trackKey])).toEqual([[ANALYSIS_REPLACED, MONEY]]);

    const after = await request(t.app).get(`/api/audio/analysis/${MONEY}`).set(t.auth).set('If-None-Match', etagA).expect(200);
    const etagB = after.headers.etag as string;
    expect(etagB).not.toBe(etagA);
    expect(after.body.data.tempo).toBeGreaterThanOrEqual(60);
    expect(after.headers['trackgraph-engine']).toBe('fake-engine');
    await request(t.app).get(`/api/audio/analysis/${MONEY}`).set(t.auth).set('If-None-Match', etagB).expect(304);
    expect((await graphql()).body.data.analysis.tempo).toBe(after.body.data.tempo);
    // Time's audio is gone: its analysis is kept as it was.
    expect((await request(t.app).get(`/api/audio/analysis/${TIME}`).set(t.auth).expect(200)).body.data.tempo).toBe(1);

    // Resumable: what is current is skipped, the track without audio is tried again.
    engine.analyseCalls = 0;
    await request(t.app).post('/api/admin/reanalyse').set(admin).send({}).expect(202);
    await t.container.reanalyse.idle();
    expect(engine.analyseCalls).toBe(0);
  });

  it('when another server replaced the analysis, then hearing its event drops the cached copies here', async () => {
    const before = await request(t.app).get(`/api/audio/analysis/${MONEY}`).set(t.auth).expect(200);
    expect((await graphql()).body.data.analysis.tempo).toBe(1);
    // What another process did: the row replaced in the shared store, then the event on the channel.
    const fresh = { ...olderAnalysis(MONEY, 'Money'), analysedAt: '2031-01-01T00:00:00.000Z' };
    fresh.features = { ...fresh.features, tempo: 99, engine: 'trackgraph-engine/99' };
    const db = t.container.database.db;
    await db.updateTable('analyses').set({ tempo: 99, engine: 'trackgraph-engine/99' }).where('track_key', '=', MONEY).execute();
    // Not heard yet: the copies held here are still served.
    expect((await request(t.app).get(`/api/audio/analysis/${MONEY}`).set(t.auth).expect(200)).headers.etag).toBe(before.headers.etag);
    await t.container.events.publish({ type: ANALYSIS_REPLACED, id: 'evt_elsewhere', trackKey: MONEY, at: fresh.analysedAt, analysis: fresh, previousEngine: 'trackgraph-engine/1' });
    const after = await request(t.app).get(`/api/audio/analysis/${MONEY}`).set(t.auth).expect(200);
    expect(after.body.data.tempo).toBe(99);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await graphql()).body.data.analysis.tempo).toBe(99);
  });
});
