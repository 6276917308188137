import { SoundService } from '../../../src/analysis/sound.service';
import { SoundIndex } from '../../../src/analysis/store/sound.index';
import { SqlAnalysisStore } from '../../../src/analysis/store/sql.store';
import { SIGNAL_EMBEDDING } from '../../../src/core/sound';
import type { StoredAnalysis } from '../../../src/core/types';
import { onBothDatabases, type DatabasePair } from '../../helpers/database-pair';
import { analysisOf } from './browse.suite';

/*
 * The sound index: every analysis' embedding of one kind, searched by cosine, kept up to date with
 * writes made through another connection (another API node, a worker), exact below its graph's
 * threshold and through the HNSW graph above it; and the sound service over it.
 */

const DIMS = 8;

/** A deterministic vector for analysis i: clusters of four, each around its own direction. */
function vectorOf(i: number): number[] {
  const cluster = Math.floor(i / 4);
  return Array.from({ length: DIMS }, (_, d) => (d === cluster % DIMS ? 3 : 0) + Math.sin(i * 1.7 + d * 0.9) * 0.4 + (d === (cluster * 3) % DIMS ? 1 : 0));
}

function withEmbedding(i: number, vector: number[] | null = vectorOf(i)): StoredAnalysis {
  return analysisOf(`Artist ${i}`, `Song ${i}`, vector ? { embeddings: [{ kind: SIGNAL_EMBEDDING, vector }] } : {}, i + 1);
}

/** The exact nearest by cosine, by brute force over plain numbers. */
function exactNearest(query: number[], among: Map<string, number[]>, k: number, exclude: string): string[] {
  const unit = (v: number[]) => {
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
  const q = unit(query);
  return [...among]
    .filter(([key]) => key !== exclude)
    .map(([key, v]) => ({ key, d: 1 - unit(v).reduce((s, x, j) => s + x * q[j]!, 0) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, k)
    .map((x) => x.key);
}


function describeSound(name: string, open: () => Promise<DatabasePair>): void {
  describe(`the sound index on ${name}`, () => {
    let pair: DatabasePair;
    let writes: SqlAnalysisStore;
    const vectors = new Map<string, number[]>();

    beforeEach(async () => {
      pair = await open();
      writes = new SqlAnalysisStore(pair.writer);
      vectors.clear();
      for (let i = 0; i < 40; i++) {
        const a = withEmbedding(i);
        await writes.save(a);
        vectors.set(a.trackKey, vectorOf(i));
      }
      // One analysis without an embedding (made by an older engine).
      await writes.save(analysisOf('Old', 'Engine', {}, 500));
    });
    afterEach(async () => {
      await pair.close();
    });

    it('finds the exact nearest by cosine, leaves out what it is told to, and holds only analyses with a vector of its kind', async () => {
      const index = new SoundIndex(pair.reader, SIGNAL_EMBEDDING, undefined, { wait: true });
      expect(await index.fresh()).toBe(true);
      expect(index.size).toBe(40);
      expect(index.graphReady).toBe(false);
      for (const i of [0, 13, 27]) {
        const key = withEmbedding(i).trackKey;
        const found = index.nearest(vectorOf(i), 5, new Set([key]));
        expect(found.map((f) => f.trackKey)).toEqual(exactNearest(vectorOf(i), vectors, 5, key));
        // Distances rise, and lie in [0, 2].
        for (let j = 1; j < found.length; j++) expect(found[j]!.distance).toBeGreaterThanOrEqual(found[j - 1]!.distance);
        for (const f of found) expect(f.distance).toBeGreaterThanOrEqual(0);
      }
      expect(index.vectorOf(analysisOf('Old', 'Engine', {}, 500).trackKey)).toBeUndefined();
      // Another kind's index holds nothing of this one.
      const other = new SoundIndex(pair.reader, 'musicnn/1', undefined, { wait: true });
      await other.fresh();
      expect(other.size).toBe(0);
      expect(other.nearest(vectorOf(0), 5)).toEqual([]);
    });

    it('sees analyses another connection stores or replaces at its next call: a new one is found at once, a replaced vector moves, one replaced without a vector is gone', async () => {
      const index = new SoundIndex(pair.reader, SIGNAL_EMBEDDING, undefined, { wait: true });
      await index.fresh();
      const probe = [9, -3, 2, 0, 0, 5, 1, 0];
      const added = analysisOf('Later', 'Added', { embeddings: [{ kind: SIGNAL_EMBEDDING, vector: probe }] }, 99);
      await writes.save(added);
      await index.fresh();
      expect(index.nearest(probe, 1)[0]).toMatchObject({ trackKey: added.trackKey });
      expect(index.nearest(probe, 1)[0]!.distance).toBeCloseTo(0, 6);
      // Song 3 replaced with the probe's direction: now it is as near as the added one.
      await writes.replace(withEmbedding(3, probe.map((x) => 2 * x)));
      await index.fresh();
      expect(new Set(index.nearest(probe, 2).map((f) => f.trackKey))).toEqual(new Set([added.trackKey, withEmbedding(3).trackKey]));
      // Song 5 replaced by an analysis without an embedding: never returned again.
      await writes.replace(withEmbedding(5, null));
      await index.fresh();
      expect(index.size).toBe(40);
      expect(index.nearest(vectorOf(5), 40).map((f) => f.trackKey)).not.toContain(withEmbedding(5).trackKey);
    });

    it('through the HNSW graph, answers as the exact scan does (and keeps answering so as vectors arrive)', async () => {
      const exact = new SoundIndex(pair.reader, SIGNAL_EMBEDDING, undefined, { wait: true });
      const graph = new SoundIndex(pair.reader, SIGNAL_EMBEDDING, undefined, { wait: true, graphFrom: 10 });
      await exact.fresh();
      await graph.fresh();
      await graph.built();
      expect(graph.graphReady).toBe(true);
      for (let i = 0; i < 40; i += 7) {
        const key = withEmbedding(i).trackKey;
        expect(graph.nearest(vectorOf(i), 6, new Set([key])).map((f) => f.trackKey)).toEqual(exact.nearest(vectorOf(i), 6, new Set([key])).map((f) => f.trackKey));
      }
      const added = analysisOf('Later', 'Graph', { embeddings: [{ kind: SIGNAL_EMBEDDING, vector: [0, 0, 0, 0, 0, 0, 0, 9] }] }, 77);
      await writes.save(added);
      await graph.fresh();
      await graph.built();
      expect(graph.nearest([0, 0, 0, 0, 0, 0, 0, 1], 1)[0]!.trackKey).toBe(added.trackKey);
    });

    it('the sound service: similar by sound from the store, a path of distinct tracks from one end to the other, and clear errors', async () => {
      const index = new SoundIndex(pair.reader, SIGNAL_EMBEDDING, undefined, { wait: true });
      const service = new SoundService(() => index, new SqlAnalysisStore(pair.reader), 'signal');
      const seed = withEmbedding(8).trackKey;
      const similar = await service.similar(seed, 3);
      expect(similar.map((s) => s.analysis.trackKey)).toEqual(exactNearest(vectorOf(8), vectors, 3, seed));
      expect(similar[0]!.analysis.artist).toMatch(/^Artist \d+$/);

      const from = withEmbedding(0).trackKey;
      const to = withEmbedding(39).trackKey;
      const path = await service.path(from, to, 6);
      expect(path).toHaveLength(8);
      expect(path[0]!.analysis.trackKey).toBe(from);
      expect(path[7]!.analysis.trackKey).toBe(to);
      expect(new Set(path.map((p) => p.analysis.trackKey)).size).toBe(8);
      expect(path[0]!.distance).toBe(0);
      // Each step's distance is the cosine distance from the one before it.
      for (let j = 1; j < path.length; j++) expect(path[j]!.distance).toBeGreaterThanOrEqual(0);
      expect(await service.path(from, to, 0)).toHaveLength(2);

      await expect(service.similar(analysisOf('Old', 'Engine', {}, 500).trackKey)).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/no sound embedding/) as unknown });
      await expect(service.similar('00000000000000aa')).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
      await expect(service.similar('not a key')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(service.similar(seed, 51)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(service.path(from, from)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(service.path(from, to, 51)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('similar by sound with otherArtists passes over the seed\'s artist however many of its songs lie nearest (the search asked again for more)', async () => {
      const index = new SoundIndex(pair.reader, SIGNAL_EMBEDDING, undefined, { wait: true });
      const service = new SoundService(() => index, new SqlAnalysisStore(pair.reader), 'signal');
      const seed = withEmbedding(8).trackKey;
      // Twelve more songs of the seed's artist, spelt as people do, each nearer the seed than any other artist's.
      for (let j = 0; j < 12; j++) {
        const vector = vectorOf(8).map((x, d) => x + (d === 7 ? 0.001 * (j + 1) : 0));
        await writes.save(analysisOf(j % 2 === 0 ? 'ARTIST  8' : 'Ártist 8', `More ${j}`, { embeddings: [{ kind: SIGNAL_EMBEDDING, vector }] }, 300 + j));
      }
      expect((await service.similar(seed, 2)).map((s) => s.analysis.artist)).toEqual(['ARTIST  8', 'Ártist 8']);
      // More than the first search's 4 x 2 neighbours are the artist's: a second search, wider, finds the others.
      const others = await service.similar(seed, 2, { otherArtists: true });
      expect(others.map((s) => s.analysis.trackKey)).toEqual(exactNearest(vectorOf(8), vectors, 2, seed));
      for (let j = 1; j < others.length; j++) expect(others[j]!.distance).toBeGreaterThanOrEqual(others[j - 1]!.distance);
      await expect(service.similar('00000000000000aa', 2, { otherArtists: true })).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
    });
  });
}

onBothDatabases('sound-index', describeSound);
