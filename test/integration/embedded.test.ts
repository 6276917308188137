import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { FakeEngine } from '../../measure/http/fake-engine';
import { createTestApp } from '../helpers/test-app';

/*
 * The embedded default (SQLite, its own cache, analyses in process) never loads the clients of
 * the scaled-out backends: they are required where first used (src/core/lazy.ts), and loading
 * them would cost every start about 0.5 s of CPU. Nor does a server whose only source is its
 * library, logging JSON lines, load undici (the outbound guard's transport, made on a first fetch
 * to a catalogue or a URL), node-taglib-sharp (tags written back) or pino-pretty (readable logs):
 * about 0.2 s more. Nor does it load hnswlib-node (the sound index's graph, built from 20,000
 * tracks on) or umap-js (the library's map, in a thread of its own). Here requiring any of them
 * fails the app.
 */
jest.mock('bullmq', () => mockRefused('bullmq'));
jest.mock('ioredis', () => mockRefused('ioredis'));
jest.mock('@keyv/redis', () => mockRefused('@keyv/redis'));
jest.mock('pg', () => mockRefused('pg'));
jest.mock('undici', () => mockRefused('undici'));
jest.mock('node-taglib-sharp', () => mockRefused('node-taglib-sharp'));
jest.mock('pino-pretty', () => mockRefused('pino-pretty'));
jest.mock('hnswlib-node', () => mockRefused('hnswlib-node'));
jest.mock('umap-js', () => mockRefused('umap-js'));

/** A mocked package's factory: requiring the package fails. (Jest lets a factory call `mock…` names only.) */
function mockRefused(name: string): never {
  throw new Error(`${name} was loaded by the embedded default`);
}

describe('the embedded default', () => {
  it('starts, searches its library, analyses and browses without loading Redis, BullMQ or Postgres clients, undici, node-taglib-sharp, pino-pretty, hnswlib-node or umap-js', async () => {
    const engine = new FakeEngine();
    engine.tags.set('money.mp3', { artist: 'Pink Floyd', title: 'Money' });
    const t = await createTestApp({ engine, prepareLibrary: (dir) => writeFile(path.join(dir, 'money.mp3'), 'audio of money') });
    try {
      expect((await request(t.app).get('/readyz')).status).toBe(200);
      const found = await request(t.app).get('/api/audio/search?track=Money&artist=Pink%20Floyd').set(t.auth);
      expect(found.status).toBe(200);
      const trackKey = (found.body.data as { trackKey: string }[])[0]!.trackKey;
      const analysed = await request(t.app).get(`/api/audio/analysis/${trackKey}`).set(t.auth);
      expect(analysed.status).toBe(200);
      expect(analysed.body.data.trackKey).toBe(trackKey);
      const browsed = await request(t.app).post('/graphql').set(t.auth).send({ query: '{ tracks(first: 5) { totalCount edges { node { trackKey } } } }' });
      expect(browsed.body.errors).toBeUndefined();
      expect(browsed.body.data.tracks.edges.map((e: { node: { trackKey: string } }) => e.node.trackKey)).toEqual([trackKey]);
    } finally {
      await t.close();
    }
  });
});
