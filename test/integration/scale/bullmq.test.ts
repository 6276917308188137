import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import type { Container } from '../../../src/container';
import { trackKey } from '../../../src/core/track-key';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { describeWith } from '../../helpers/describe-with';
import { PickyEngine, scaledSetup, startWorker, type ScaledSetup } from './scale.helpers';

const MONEY = trackKey('Pink Floyd', 'Money');
const CYMBALINE = trackKey('Pink Floyd', 'Cymbaline');
const NOISE = trackKey('Broken Band', 'Noise');

async function library(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money');
  await writeFile(path.join(dir, 'Pink Floyd - Cymbaline.mp3'), 'bytes of cymbaline');
  await writeFile(path.join(dir, 'Broken Band - Noise.mp3'), 'not audio at all');
}

describeWith({ redis: true, postgres: true })('analysis jobs on BullMQ, store on Postgres (two API nodes, one worker)', () => {
  let setup: ScaledSetup;
  let a: TestApp;
  let b: TestApp;
  let worker: Container | undefined;
  let engine: PickyEngine;

  const analyse = (t: TestApp, key: string, query = '') => request(t.app).get(`/api/audio/analysis/${key}${query}`).set(t.auth);
  const hint = (artist: string, track: string) => `?artist=${encodeURIComponent(artist)}&track=${encodeURIComponent(track)}`;

  beforeEach(async () => {
    setup = scaledSetup('bullmq');
    engine = new PickyEngine();
    a = await createTestApp({ engine, prepareLibrary: library, env: { ...setup.env, ANALYSIS_WAIT_MS: '10000' } });
    b = await createTestApp({ engine, prepareLibrary: library, env: { ...setup.env, ANALYSIS_WAIT_MS: '10000' } });
    worker = await startWorker(a.dir, setup.env, engine);
  });
  afterEach(async () => {
    await worker?.close();
    await a.close();
    await b.close();
    await setup.cleanup();
  });

  it('when many requests on two nodes ask for one new key, then it is analysed once and all get it', async () => {
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => analyse(i % 2 ? a : b, MONEY, hint('Pink Floyd', 'Money'))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(responses[0]!.body.data).toMatchObject({ trackKey: MONEY, trackName: 'Money', duration_ms: 1000 + 'bytes of money'.length });
    expect(engine.analyseCalls).toBe(1);
    expect(await a.container.store.count()).toBe(1);
  });

  it('when the analysis outlasts ANALYSIS_WAIT_MS, then 202 with the job state, and the next request gets it', async () => {
    engine.delayMs = 2500;
    const quick = await createTestApp({ engine, prepareLibrary: library, env: { ...setup.env, ANALYSIS_WAIT_MS: '100' } });
    try {
      const pending = await analyse(quick, CYMBALINE, hint('Pink Floyd', 'Cymbaline')).expect(202);
      expect(pending.body).toEqual({
        success: true,
        data: null,
        status: expect.stringMatching(/^(queued|processing)$/),
        queuePosition: expect.any(Number),
        retryAfter: expect.any(Number),
      });
      expect(pending.headers['retry-after']).toBe(String(pending.body.retryAfter));
      // GraphQL, on another node, sees the same job.
      const status = await request(b.app)
        .post('/graphql')
        .set(b.auth)
        .send({ query: 'query($k: String!) { analysisStatus(trackKey: $k) { status queuePosition analysis { trackKey } } }', variables: { k: CYMBALINE } })
        .expect(200);
      expect(status.body.data.analysisStatus).toEqual({ status: expect.stringMatching(/^(QUEUED|PROCESSING)$/), queuePosition: expect.any(Number), analysis: null });
      // Another node, waiting longer, gets the result of the same job.
      const done = await analyse(a, CYMBALINE, hint('Pink Floyd', 'Cymbaline')).expect(200);
      expect(done.body.data.trackName).toBe('Cymbaline');
      await analyse(quick, CYMBALINE).expect(200);
      expect(engine.analyseCalls).toBe(1);
    } finally {
      await quick.close();
    }
  });

  it('when the file is not audio, then 422 AUDIO_UNDECODABLE after one attempt; requests on both nodes get it again, and other keys still work', async () => {
    const first = await analyse(a, NOISE, hint('Broken Band', 'Noise')).expect(422);
    expect(first.body.error.code).toBe('AUDIO_UNDECODABLE');
    // Undecodable is final: one attempt, not three.
    expect(engine.analyseCalls).toBe(1);
    // Asked again on both nodes at once: the kept failed job runs again (the file may have been
    // mended since), once whichever node retries it first, or once more when the other node's
    // request comes after that retry has failed; every request gets the failure.
    const [x, y] = await Promise.all([analyse(a, NOISE, hint('Broken Band', 'Noise')), analyse(b, NOISE, hint('Broken Band', 'Noise'))]);
    for (const r of [x, y]) {
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('AUDIO_UNDECODABLE');
    }
    expect(engine.analyseCalls).toBeGreaterThanOrEqual(2);
    expect(engine.analyseCalls).toBeLessThanOrEqual(3);
    await analyse(b, MONEY, hint('Pink Floyd', 'Money')).expect(200);
    expect(await a.container.store.count()).toBe(1);
  });

  it('when a finished job’s row is gone, then a new request runs the kept job again', async () => {
    await analyse(a, MONEY, hint('Pink Floyd', 'Money')).expect(200);
    await a.container.database.db.deleteFrom('analyses').execute();
    await analyse(b, MONEY, hint('Pink Floyd', 'Money')).expect(200);
    expect(engine.analyseCalls).toBe(2);
    expect(await a.container.store.count()).toBe(1);
  });

  it('reports the queue in /readyz and its depth in /metrics', async () => {
    const ready = await request(a.app).get('/readyz').expect(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { store: 'ok', cache: 'ok', sources: 'ok', queue: 'ok' } });
    const metrics = await request(a.app).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/trackgraph_analysis_queue_jobs\{state="waiting",role="api"\} 0/);
  });

  it('rate limits are shared by the nodes through Redis', async () => {
    const limited = await createTestApp({ engine, prepareLibrary: library, env: { ...setup.env, RATE_LIMIT: '3' } });
    const other = await createTestApp({ engine, prepareLibrary: library, env: { ...setup.env, RATE_LIMIT: '3' } });
    try {
      const search = (t: TestApp) => request(t.app).get('/api/audio/search?track=Money').set(t.auth);
      await search(limited).expect(200);
      await search(other).expect(200);
      const third = await search(limited).expect(200);
      expect(third.headers['ratelimit-remaining']).toBe('0');
      const refused = await search(other).expect(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
      await other.close();
    }
  });
});
