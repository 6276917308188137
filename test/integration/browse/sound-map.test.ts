import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SoundMapService, type SoundMap } from '../../../src/analysis/sound-map.service';
import { SoundIndex } from '../../../src/analysis/store/sound.index';
import { SqlAnalysisStore } from '../../../src/analysis/store/sql.store';
import type { AnalysisStore } from '../../../src/analysis/store/store';
import { MODELS_EMBEDDING, SIGNAL_EMBEDDING } from '../../../src/core/sound';
import type { StoredAnalysis } from '../../../src/core/types';
import { openDatabase, type Database } from '../../../src/db/database';
import { migrateToLatest } from '../../../src/db/migrations';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp } from '../../helpers/test-app';
import { post } from '../graphql/graphql.helpers';
import { analysisOf, tagsOf } from './browse.suite';

/*
 * The map of the library: the sound embeddings projected onto the plane by UMAP, kept and
 * recomputed in the background as analyses arrive, on SQLite with writes through a second
 * connection (as another node's or a worker's).
 */

const DIMS = 16;
/** Songs per cluster. */
const PER_CLUSTER = 30;

/** Deterministic numbers in [-1, 1). */
function noise(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2147483648 - 1;
  };
}

/** Song i's vector: cluster 0 (i < PER_CLUSTER) around one direction, cluster 1 around another, each with its spread. */
function vectorOf(i: number): number[] {
  const r = noise(i * 97 + 3);
  const axis = i < PER_CLUSTER ? 0 : 8;
  return Array.from({ length: DIMS }, (_, d) => (d >= axis && d < axis + 4 ? 2 : 0) + r() * 0.35);
}

/** Song i, made with the models (tags) for even i. */
function song(i: number, kind = SIGNAL_EMBEDDING): StoredAnalysis {
  return analysisOf(`Artist ${i}`, `Song ${i}`, { embeddings: [{ kind, vector: vectorOf(i) }], ...(i % 2 === 0 ? { tags: tagsOf(i) } : {}) }, i + 1);
}

const NOT_GENRES = new Set(['00s', '90s', '80s', '70s', '60s', 'female vocalists', 'female vocalist', 'male vocalists']);

/** Each point's nearest other point on the map. */
function mapNeighbours(map: SoundMap): Map<string, string> {
  const found = new Map<string, string>();
  for (const p of map.points) {
    let best: { key: string; d: number } | undefined;
    for (const q of map.points) {
      if (q === p) continue;
      const d = Math.hypot(p.x - q.x, p.y - q.y);
      if (!best || d < best.d) best = { key: q.trackKey, d };
    }
    found.set(p.trackKey, best!.key);
  }
  return found;
}

describe('the map of the library (SoundMapService)', () => {
  let dir: string;
  let reader: Database;
  let writer: Database;
  let writes: SqlAnalysisStore;
  const clusterOf = new Map<string, number>();

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-sound-map-'));
    writer = openDatabase(path.join(dir, 'map.sqlite'), dir);
    await migrateToLatest(writer);
    reader = openDatabase(path.join(dir, 'map.sqlite'), dir);
    writes = new SqlAnalysisStore(writer);
    for (let i = 0; i < 2 * PER_CLUSTER; i++) {
      const a = song(i);
      await writes.save(a);
      clusterOf.set(a.trackKey, i < PER_CLUSTER ? 0 : 1);
    }
    // An analysis without an embedding is not on the map.
    await writes.save(analysisOf('Old', 'Engine', {}, 500));
  });
  afterEach(async () => {
    await reader.close();
    await writer.close();
    await rm(dir, { recursive: true, force: true });
  });

  function service(options: ConstructorParameters<typeof SoundMapService>[3] = {}, store: AnalysisStore = new SqlAnalysisStore(reader), method = 'signal'): SoundMapService {
    const indexes = new Map<string, SoundIndex>();
    const indexOf = (kind: string) => {
      let index = indexes.get(kind);
      if (!index) indexes.set(kind, (index = new SoundIndex(reader, kind)));
      return index;
    };
    return new SoundMapService(indexOf, store, method, options);
  }

  it('keeps what sounds alike together: two clusters of embeddings are two groups of points, every point in [0, 1], with the stored fields', async () => {
    const map = await service().map();
    expect(map).toMatchObject({ kind: SIGNAL_EMBEDDING, size: 60, total: 60, stale: false });
    expect(Date.parse(map.computedAt)).not.toBeNaN();
    expect(map.points).toHaveLength(60);
    for (const p of map.points) {
      for (const v of [p.x, p.y]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
    }
    // One scale for both axes: the wider axis spans the whole of [0, 1].
    const spanOf = (values: number[]) => Math.max(...values) - Math.min(...values);
    expect(Math.max(spanOf(map.points.map((p) => p.x)), spanOf(map.points.map((p) => p.y)))).toBeCloseTo(1, 3);

    const neighbours = mapNeighbours(map);
    const together = [...neighbours].filter(([key, nearest]) => clusterOf.get(key) === clusterOf.get(nearest)).length;
    expect(together / neighbours.size).toBeGreaterThanOrEqual(0.9);
    // The two groups' centres lie apart, further than each group's own spread.
    const centre = (c: number) => {
      const ps = map.points.filter((p) => clusterOf.get(p.trackKey) === c);
      return { x: ps.reduce((s, p) => s + p.x, 0) / ps.length, y: ps.reduce((s, p) => s + p.y, 0) / ps.length, ps };
    };
    const [a, b] = [centre(0), centre(1)];
    const spread = (c: typeof a) => Math.max(...c.ps.map((p) => Math.hypot(p.x - c.x, p.y - c.y)));
    expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(Math.max(spread(a), spread(b)));

    for (let i = 0; i < 60; i++) {
      const stored = song(i);
      const point = map.points.find((p) => p.trackKey === stored.trackKey)!;
      const f = stored.features;
      expect(point).toMatchObject({
        artist: stored.artist,
        trackName: stored.trackName,
        tempo: f.tempo,
        energy: f.energy,
        valence: f.valence,
        happy: f.mood.happy,
        sad: f.mood.sad,
        relaxed: f.mood.relaxed,
        aggressive: f.mood.aggressive,
      });
      const genres = (f.tags ?? []).filter((t) => !NOT_GENRES.has(t.name));
      const top = genres.reduce<(typeof genres)[number] | undefined>((best, t) => (!best || t.probability > best.probability ? t : best), undefined);
      expect(point.genre).toBe(top?.name ?? null);
    }
    expect(map.points.filter((p) => p.genre !== null)).toHaveLength(30);
  });

  it('is the same map at every computation, and samples a larger library to maxPoints, the same tracks each time', async () => {
    const first = await service().map();
    const again = await service().map();
    expect(again.points).toEqual(first.points);

    const sampled = await service({ maxPoints: 25 }).map();
    expect(sampled).toMatchObject({ size: 25, total: 60 });
    expect(sampled.points).toHaveLength(25);
    const resampled = await service({ maxPoints: 25 }).map();
    expect(resampled.points).toEqual(sampled.points);
    // A new analysis changes the sample by at most the one track.
    await writes.save(song(200));
    const grown = await service({ maxPoints: 25 }).map();
    expect(grown.total).toBe(61);
    const before = new Set(sampled.points.map((p) => p.trackKey));
    expect(grown.points.filter((p) => !before.has(p.trackKey)).length).toBeLessThanOrEqual(1);
  });

  it('answers the kept map at once, stale when analyses arrived, and recomputes it in the background once minRefreshMs has passed', async () => {
    const reads: number[] = [];
    const store = new SqlAnalysisStore(reader);
    const counting: AnalysisStore = Object.assign(Object.create(store) as AnalysisStore, {
      getMany: (keys: readonly string[], options?: { segments?: boolean }) => {
        reads.push(keys.length);
        return store.getMany(keys, options);
      },
    });
    // The service's clock, moved by the test: only the time the test says passes counts.
    let now = 1_000_000;
    const maps = service({ minRefreshMs: 300, now: () => now }, counting);
    // Calls made together share one computation.
    const [one, two] = await Promise.all([maps.map(), maps.map()]);
    expect(two).toEqual(one);
    expect(reads).toEqual([60]);
    // Nothing changed: the kept map, not stale, nothing read.
    expect(await maps.map()).toEqual(one);
    expect(reads).toEqual([60]);

    const added = song(300);
    await writes.save(added);
    // Too soon for a new computation: the kept map, said to be stale.
    const soon = await maps.map();
    expect(soon).toMatchObject({ stale: true, size: 60, computedAt: one.computedAt });
    await maps.settled();
    expect(reads).toEqual([60]);

    now += 320;
    const due = await maps.map();
    // Answered at once with the old map while the new one is computed.
    expect(due).toMatchObject({ stale: true, size: 60 });
    expect((await maps.map()).stale).toBe(true);
    await maps.settled();
    expect(reads).toEqual([60, 61]);
    const fresh = await maps.map();
    expect(fresh).toMatchObject({ stale: false, size: 61, total: 61 });
    expect(fresh.points.find((p) => p.trackKey === added.trackKey)).toMatchObject({ artist: 'Artist 300', trackName: 'Song 300' });
    // The newcomer lies among its own cluster (song 300's vector is of the second).
    const neighbours = mapNeighbours(fresh);
    expect(clusterOf.get(neighbours.get(added.trackKey)!)).toBe(1);
  });

  it('sees a replaced vector once a refresh is due', async () => {
    let now = 1_000_000;
    const maps = service({ minRefreshMs: 100, now: () => now });
    const first = await maps.map();
    // Song 0 now sounds like the second cluster: as many vectors as before, other ones.
    const moved = song(0);
    await writes.replace({ ...moved, features: { ...moved.features, embeddings: [{ kind: SIGNAL_EMBEDDING, vector: vectorOf(45) }] } });
    now += 120;
    expect((await maps.map()).stale).toBe(true);
    await maps.settled();
    const after = await maps.map();
    expect(after.stale).toBe(false);
    expect(after.computedAt >= first.computedAt).toBe(true);
    expect(clusterOf.get(mapNeighbours(after).get(moved.trackKey)!)).toBe(1);
  });

  it('reports a failed computation and tries again at the next call', async () => {
    const store = new SqlAnalysisStore(reader);
    let failures = 1;
    const flaky: AnalysisStore = Object.assign(Object.create(store) as AnalysisStore, {
      getMany: (keys: readonly string[], options?: { segments?: boolean }) => {
        if (failures-- > 0) return Promise.reject(new Error('the database went away'));
        return store.getMany(keys, options);
      },
    });
    const errors: unknown[] = [];
    const maps = service({ onError: (e) => errors.push(e) }, flaky);
    await expect(maps.map()).rejects.toThrow('the database went away');
    expect(errors).toHaveLength(1);
    expect((await maps.map()).size).toBe(60);
  });

  it('prefers the models’ embeddings on a server that makes them, and places one or two tracks without UMAP', async () => {
    for (const i of [1, 2]) await writes.save({ ...song(100 + i), features: { ...song(100 + i).features, embeddings: [{ kind: MODELS_EMBEDDING, vector: vectorOf(i) }] } });
    const models = await service({}, undefined, 'models:musicnn-msd-2/r32').map();
    expect(models).toMatchObject({ kind: MODELS_EMBEDDING, size: 2, total: 2 });
    const xs = models.points.map((p) => p.x).sort();
    expect(xs).toEqual([0, 1]);
    expect(models.points.map((p) => p.y)).toEqual([0.5, 0.5]);
    // The signal path's server maps its own kind.
    expect((await service().map()).kind).toBe(SIGNAL_EMBEDDING);
  });

  it('maps an empty library as no points, then its first track at the centre at the next call', async () => {
    const own = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-sound-map-empty-'));
    const db = openDatabase(path.join(own, 'empty.sqlite'), own);
    try {
      await migrateToLatest(db);
      const index = new SoundIndex(db, SIGNAL_EMBEDDING);
      const maps = new SoundMapService(() => index, new SqlAnalysisStore(db), 'signal', { minRefreshMs: 60_000 });
      expect(await maps.map()).toMatchObject({ kind: SIGNAL_EMBEDDING, size: 0, total: 0, points: [], stale: false });
      await new SqlAnalysisStore(db).save(song(7));
      // A map of nothing is not kept: the next call maps the first track, whatever minRefreshMs says.
      expect(await maps.map()).toMatchObject({ size: 1, total: 1, stale: false, points: [{ x: 0.5, y: 0.5, trackName: 'Song 7' }] });
    } finally {
      await db.close();
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe('soundMap over GraphQL', () => {
  it('answers the map of the whole app, each point with its track’s names and fields', async () => {
    const t = await createTestApp({ engine: new FakeEngine() });
    try {
      for (const i of [0, 1, 2, 40, 41]) await t.container.store.save(song(i));
      const res = await post<{ soundMap: SoundMap }>(t, {
        query: '{ soundMap { kind size total computedAt stale points { trackKey artist trackName x y tempo happy genre } } }',
      });
      expect(res.body.errors).toBeUndefined();
      const map = res.body.data!.soundMap;
      expect(map).toMatchObject({ kind: SIGNAL_EMBEDDING, size: 5, total: 5, stale: false });
      expect(new Date(map.computedAt).toISOString()).toBe(map.computedAt);
      const zero = song(0);
      expect(map.points.find((p) => p.trackKey === zero.trackKey)).toMatchObject({ artist: 'Artist 0', trackName: 'Song 0', tempo: zero.features.tempo, happy: zero.features.mood.happy });
      expect(map.points.find((p) => p.trackKey === song(1).trackKey)!.genre).toBeNull();
    } finally {
      await t.close();
    }
  });
});
