import { sql } from 'kysely';
import type { HierarchicalNSW } from 'hnswlib-node';
import { lazily } from '../../core/lazy';
import { decodeVector, unitVector as unit } from '../../core/vectors';
import type { Database } from '../../db/database';
import { RevisionedIndex } from './revisioned.index';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use (src/core/lazy.ts)
const hnswlib = lazily(() => require('hnswlib-node') as typeof import('hnswlib-node'));

/** Points added to the graph between two turns of the event loop while it is built (about 0.2 s). */
const BUILD_CHUNK = 1_000;

/**
 * HNSW's parameters: links per node, the candidates weighed while building and while searching.
 * The search's 160: at 1,000,000 embeddings of 360 numbers (the models' `musicnn/2`) 80 found
 * 0.94 of the exact ten nearest, 160 0.98, for about 0.1 ms more a search (bench:sound --ef).
 */
const HNSW_M = 16;
const HNSW_EF_CONSTRUCTION = 200;
const HNSW_EF_SEARCH = 160;

/** A neighbour found: its track key and cosine distance (1 − cosine similarity, 0–2). */
export interface SoundNeighbour {
  trackKey: string;
  seq: number;
  distance: number;
}

export interface SoundIndexOptions {
  /** A call before the load waits for it rather than answering not ready (tests, one-off readers). */
  wait?: boolean;
  /** From this many vectors on, searches go through an HNSW graph; below, every vector is compared (exact). */
  graphFrom?: number;
  /** The candidates a graph search weighs (HNSW's ef; default HNSW_EF_SEARCH): more finds more of the exact nearest, slower. */
  efSearch?: number;
}

/** The graph is built from this many vectors on: below, an exact scan costs under a millisecond or two. */
export const GRAPH_FROM = 20_000;

/**
 * Every stored analysis' sound embedding of one kind (migration 0013), in memory, unit length,
 * for the nearest by cosine distance: an exact scan of the vectors while there are few (or while
 * the graph is built), an HNSW graph (hnswlib) from GRAPH_FROM on, built in the background in
 * chunks and kept up as embeddings arrive. The database stays the truth: a caller reads the
 * analyses it is given from the store, and drops any the store no longer has.
 *
 * Freshness: as the browse index, every call first reads the analyses written since the last one
 * (revisions.ts), and their embeddings of this kind: a new analysis is found by the next call on
 * any node; a re-analysed one's vector replaces its old one, in the graph too.
 */
export class SoundIndex extends RevisionedIndex {
  private n = 0;
  private dims = 0;
  private vectors = new Float32Array(0);
  private seqs = new Float64Array(0);
  private readonly slotOf = new Map<number, number>();
  private trackKeys: string[] = [];
  private readonly keySlot = new Map<string, number>();
  /** Slots whose analysis has no vector of this kind any more (re-analysed without it). */
  private readonly gone = new Set<number>();
  private graph: HierarchicalNSW | undefined;
  /** Slots added to the graph so far (the graph answers once it holds every slot). */
  private inGraph = 0;
  private building: Promise<void> | undefined;
  /** The candidates a graph search weighs (SoundIndexOptions.efSearch); a bench compares several on one graph. */
  efSearch: number;

  constructor(
    database: Database,
    readonly kind: string,
    onError: (error: unknown) => void = () => {},
    private readonly options: SoundIndexOptions = {},
  ) {
    super(database, onError);
    this.efSearch = options.efSearch ?? HNSW_EF_SEARCH;
  }

  /** Vectors held. */
  get size(): number {
    return this.n - this.gone.size;
  }

  /** Whether searches go through the graph (else an exact scan). */
  get graphReady(): boolean {
    return this.graph !== undefined && this.inGraph === this.n;
  }

  /** True once loaded, after applying what changed since the last call; false before (the load started in the background). */
  async fresh(): Promise<boolean> {
    if (!this.loaded) {
      const loading = this.load();
      if (this.options.wait) await loading;
      else {
        loading.catch(() => {});
        return false;
      }
    }
    await this.sync();
    return true;
  }

  /** The unit vector of a track, or undefined. */
  vectorOf(trackKey: string): Float32Array | undefined {
    const i = this.keySlot.get(trackKey);
    return i === undefined || this.gone.has(i) ? undefined : this.vectors.slice(i * this.dims, (i + 1) * this.dims);
  }

  /** The unit vector of the analysis stored as `seq`, or undefined. */
  vectorOfSeq(seq: number): Float32Array | undefined {
    const i = this.slotOf.get(seq);
    return i === undefined || this.gone.has(i) ? undefined : this.vectors.slice(i * this.dims, (i + 1) * this.dims);
  }

  /** Every vector held, with its track key and seq (the map of the library reads them). */
  *entries(): Generator<{ trackKey: string; seq: number; vector: Float32Array }> {
    for (let i = 0; i < this.n; i++) {
      if (this.gone.has(i)) continue;
      yield { trackKey: this.trackKeys[i]!, seq: this.seqs[i]!, vector: this.vectors.subarray(i * this.dims, (i + 1) * this.dims) };
    }
  }

  /**
   * The `k` nearest to `query` (any length-`dims` vector; normalised here), nearest first, ties by
   * seq, leaving out the track keys of `exclude`. Empty when the index holds no vector of the query's length.
   */
  nearest(query: ArrayLike<number>, k: number, exclude: ReadonlySet<string> = new Set()): SoundNeighbour[] {
    if (k <= 0 || query.length !== this.dims || this.size === 0) return [];
    const q = unit(query);
    const want = Math.min(this.size, k + exclude.size);
    const found = this.graphReady ? this.searchGraph(q, want) : this.scan(q, want);
    return found
      .filter((f) => !exclude.has(this.trackKeys[f.slot]!))
      .slice(0, k)
      .map((f) => ({ trackKey: this.trackKeys[f.slot]!, seq: this.seqs[f.slot]!, distance: f.distance }));
  }

  /** As nearest, always by an exact scan of every vector (what the graph's answers are measured against: bench:sound). */
  nearestExact(query: ArrayLike<number>, k: number, exclude: ReadonlySet<string> = new Set()): SoundNeighbour[] {
    if (k <= 0 || query.length !== this.dims || this.size === 0) return [];
    return this.scan(unit(query), Math.min(this.size, k + exclude.size))
      .filter((f) => !exclude.has(this.trackKeys[f.slot]!))
      .slice(0, k)
      .map((f) => ({ trackKey: this.trackKeys[f.slot]!, seq: this.seqs[f.slot]!, distance: f.distance }));
  }

  /** The exact `k` nearest: every vector's dot product with q, the best kept in a sorted list. */
  private scan(q: Float32Array, k: number): { slot: number; distance: number }[] {
    const { dims, vectors } = this;
    const best: { slot: number; distance: number }[] = [];
    let worst = Infinity;
    for (let i = 0, at = 0; i < this.n; i++, at += dims) {
      if (this.gone.size > 0 && this.gone.has(i)) continue;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += vectors[at + d]! * q[d]!;
      const distance = 1 - dot;
      if (best.length === k && (distance > worst || (distance === worst && this.seqs[i]! > this.seqs[best[k - 1]!.slot]!))) continue;
      let j = best.length;
      if (j === k) best.pop();
      j = best.length;
      while (j > 0 && (best[j - 1]!.distance > distance || (best[j - 1]!.distance === distance && this.seqs[best[j - 1]!.slot]! > this.seqs[i]!))) j--;
      best.splice(j, 0, { slot: i, distance });
      if (best.length === k) worst = best[k - 1]!.distance;
    }
    return best;
  }

  private searchGraph(q: Float32Array, k: number): { slot: number; distance: number }[] {
    const graph = this.graph!;
    graph.setEf(Math.max(this.efSearch, k));
    const { neighbors, distances } = graph.searchKnn(Array.from(q), Math.min(k, graph.getCurrentCount() - this.gone.size));
    return neighbors
      .map((slot, j) => ({ slot, distance: distances[j]! }))
      .sort((a, b) => a.distance - b.distance || this.seqs[a.slot]! - this.seqs[b.slot]!);
  }

  /** The graph grows (or is first built) after each load and sync. */
  protected override afterRead(): void {
    this.maybeBuild();
  }

  /** The analyses `where` selects, each with its vector of this kind (null: none). */
  protected rowsSelect(where: ReturnType<typeof sql>): ReturnType<typeof sql> {
    // The vector by a lookup of the embeddings' key per row (never a join the planner might answer by reading the whole table).
    return sql`select a.seq as seq, a.track_key as track_key, (select e.vector from analysis_embeddings e where e.seq = a.seq and e.kind = ${this.kind}) as vector from (select seq, track_key from analyses where ${where}) as a`;
  }

  /** Applies rows read: a new seq appended, a known one's vector replaced (or gone, without one). */
  protected apply(rows: Record<string, unknown>[]): void {
    for (const row of rows) {
      const seq = Number(row.seq);
      this.cursor.saw(seq);
      const bytes = row.vector as Uint8Array | null | undefined;
      const known = this.slotOf.get(seq);
      const vector = bytes ? decodeVector(bytes) : undefined;
      if (!vector || (this.dims > 0 && vector.length !== this.dims)) {
        if (known !== undefined && !this.gone.has(known)) {
          this.gone.add(known);
          if (this.graph && known < this.inGraph) this.graph.markDelete(known);
        }
        continue;
      }
      if (this.dims === 0) this.dims = vector.length;
      const i = known ?? this.append(seq, String(row.track_key));
      this.vectors.set(unit(vector), i * this.dims);
      this.trackKeys[i] = String(row.track_key);
      this.keySlot.set(this.trackKeys[i], i);
      if (this.gone.delete(i) && this.graph && i < this.inGraph) this.graph.unmarkDelete(i);
      if (this.graph && i < this.inGraph) this.graph.addPoint(Array.from(this.vectors.subarray(i * this.dims, (i + 1) * this.dims)), i);
    }
  }

  private append(seq: number, trackKey: string): number {
    if (this.n * this.dims === this.vectors.length) {
      const capacity = Math.max(1024, this.n * 2);
      const vectors = new Float32Array(capacity * this.dims);
      vectors.set(this.vectors);
      this.vectors = vectors;
      const seqs = new Float64Array(capacity);
      seqs.set(this.seqs);
      this.seqs = seqs;
    }
    const i = this.n++;
    this.seqs[i] = seq;
    this.slotOf.set(seq, i);
    this.trackKeys[i] = trackKey;
    this.keySlot.set(trackKey, i);
    return i;
  }

  /** Starts (or continues) the graph once the index is large enough: in chunks, the exact scan answering meanwhile. */
  private maybeBuild(): void {
    const from = this.options.graphFrom ?? GRAPH_FROM;
    if (this.n < from || this.building || this.inGraph === this.n) return;
    this.building = this.build()
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.building = undefined;
      });
  }

  private async build(): Promise<void> {
    if (!this.graph) {
      const { HierarchicalNSW } = hnswlib();
      this.graph = new HierarchicalNSW('ip', this.dims);
      this.graph.initIndex(Math.max(1024, this.n * 2), HNSW_M, HNSW_EF_CONSTRUCTION, 100);
    }
    const graph = this.graph;
    while (this.inGraph < this.n) {
      if (this.n > graph.getMaxElements()) graph.resizeIndex(this.n * 2);
      const end = Math.min(this.n, this.inGraph + BUILD_CHUNK);
      for (let i = this.inGraph; i < end; i++) {
        graph.addPoint(Array.from(this.vectors.subarray(i * this.dims, (i + 1) * this.dims)), i);
        if (this.gone.has(i)) graph.markDelete(i);
      }
      this.inGraph = end;
      if (this.options.wait !== true) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Resolves once the graph holds every vector (tests and benchmarks; a server does not wait). */
  async built(): Promise<void> {
    this.maybeBuild();
    while (this.building) await this.building;
  }
}
