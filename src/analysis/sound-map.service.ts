import { genreSeed } from '../core/tags';
import type { StoredAnalysis } from '../core/types';
import { SIGNAL_EMBEDDING, modelsEmbeddingKind } from '../core/sound';
import { projectVectors } from './sound-map.projection';
import type { SoundIndexes } from './sound.service';
import type { SoundIndex } from './store/sound.index';
import type { AnalysisStore } from './store/store';

/** Points of a map by default: above, a sample of this many (the same tracks at every computation while the library stays). */
export const DEFAULT_MAP_POINTS = 5000;
/** Shortest time between two computations of the map, ms, by default. */
export const DEFAULT_MAP_REFRESH_MS = 30_000;

/** Analyses read per statement while a map is computed. */
const READ_CHUNK = 1000;

/** A track on the map: where it lies (0–1 both ways, one scale for both axes) and what the page colours it by. */
export interface SoundMapPoint {
  trackKey: string;
  artist: string;
  trackName: string;
  x: number;
  y: number;
  tempo: number;
  energy: number;
  valence: number;
  happy: number;
  sad: number;
  relaxed: number;
  aggressive: number;
  /** The tagger's most probable tag that is a kind of music (no era, no voice), or null (analyses made without the models). */
  genre: string | null;
}

/** Every analysed track (or a sample of them) as a point of a 2-D projection of the sound embeddings of one kind. */
export interface SoundMap {
  /** The embedding kind the map was made from. */
  kind: string;
  /** Points of the map. */
  size: number;
  /** Embeddings of the kind when the map was made (more than size when the map is a sample). */
  total: number;
  /** When the map was made (ISO-8601). */
  computedAt: string;
  /** True while the map no longer holds what the sound index holds (a new one is on its way, or due). */
  stale: boolean;
  points: SoundMapPoint[];
}

export interface SoundMapOptions {
  /** Most points of a map: a larger library is sampled (by a hash of the track key). */
  maxPoints?: number;
  /** Shortest time between two computations, ms: the map follows new analyses at most this often. */
  minRefreshMs?: number;
  /** Told of a computation that failed (the next call tries again). */
  onError?: (error: unknown) => void;
  /** The clock, ms (tests move it). Default: Date.now. */
  now?: () => number;
}

/** A computed map and what it was made from. */
interface Made {
  map: Omit<SoundMap, 'stale'>;
  /** The fingerprint of the index's vectors it was made from. */
  fingerprint: number;
  /** When its computation ended (ms since the epoch). */
  endedAt: number;
}

/**
 * The map of the library: the sound embeddings of every analysed track projected onto a plane by
 * UMAP (sound-map.projection.ts, on a thread of its own), so that tracks that sound alike lie close. Computed
 * from the sound index (the preferred kind that has vectors, as SoundService prefers them) and
 * the stored analyses, then kept: the first call waits for it; later calls answer the kept map at
 * once and, when the index holds other vectors than it was made from and `minRefreshMs` has passed
 * since, compute a new one in the background (`stale` meanwhile). One computation at a time.
 *
 * Deterministic: the same vectors make the same map (the points in track-key order, a seeded
 * random), and a library larger than `maxPoints` is sampled by a hash of the track keys, so a
 * new analysis leaves the rest of the sample as it was.
 */
export class SoundMapService {
  private readonly kinds: string[];
  private readonly maxPoints: number;
  private readonly minRefreshMs: number;
  private readonly now: () => number;
  private made: Made | undefined;
  private running: Promise<Made> | undefined;
  /** The last computation failed: the next call tries again at once. */
  private failed = false;

  constructor(
    private readonly indexes: SoundIndexes,
    private readonly store: AnalysisStore,
    method: string,
    private readonly options: SoundMapOptions = {},
  ) {
    // As SoundService prefers them: the models' kind where this server makes it, then the signal path's.
    const models = modelsEmbeddingKind(method);
    this.kinds = models ? [models, SIGNAL_EMBEDDING] : [SIGNAL_EMBEDDING];
    this.maxPoints = options.maxPoints ?? DEFAULT_MAP_POINTS;
    this.minRefreshMs = options.minRefreshMs ?? DEFAULT_MAP_REFRESH_MS;
    this.now = options.now ?? Date.now;
    if (!Number.isInteger(this.maxPoints) || this.maxPoints < 1) throw new Error('maxPoints must be a whole number from 1');
  }

  /** The map: computed at the first call (which waits for it), then the kept one, recomputed in the background as analyses arrive. */
  async map(): Promise<SoundMap> {
    const made = this.made;
    // A map of nothing is not kept waiting: the first analyses are shown as soon as they are stored.
    if (!made || made.map.size === 0) return { ...(await this.computation()).map, stale: false };
    const stale = this.running !== undefined || (await this.changedSince(made));
    if (stale && !this.running && (this.failed || this.now() - made.endedAt >= this.minRefreshMs)) {
      this.computation().catch(() => {});
    }
    return { ...made.map, stale };
  }

  /** Resolves once no computation runs (tests, and callers that want the newest map). */
  async settled(): Promise<void> {
    while (this.running) await this.running.catch(() => {});
  }

  /** The running computation, or a new one. */
  private computation(): Promise<Made> {
    this.running ??= this.compute().then(
      (made) => {
        this.made = made;
        this.failed = false;
        this.running = undefined;
        return made;
      },
      (error: unknown) => {
        this.failed = true;
        this.running = undefined;
        this.options.onError?.(error);
        throw error;
      },
    );
    return this.running;
  }

  /** The index of a kind, loaded and up to date. */
  private async ready(kind: string): Promise<SoundIndex> {
    const index = this.indexes(kind);
    await index.load();
    await index.fresh();
    return index;
  }

  /**
   * Whether the index holds other vectors than the map was made from: a more preferred kind has
   * vectors now, or the map's kind holds another number of them (cheap, at every call), or, once
   * the map is due for a refresh, other vectors (a fingerprint of them all).
   */
  private async changedSince(made: Made): Promise<boolean> {
    for (const kind of this.kinds) {
      const index = await this.ready(kind);
      if (kind === made.map.kind) {
        if (index.size !== made.map.total) return true;
        return this.now() - made.endedAt >= this.minRefreshMs && fingerprintOf(index) !== made.fingerprint;
      }
      if (index.size > 0) return true;
    }
    return false;
  }

  private async compute(): Promise<Made> {
    let index: SoundIndex | undefined;
    for (const kind of this.kinds) {
      index = await this.ready(kind);
      if (index.size > 0) break;
    }
    const chosen = index!;
    const fingerprint = fingerprintOf(chosen);
    const total = chosen.size;
    // The vectors copied now, before any await: the index goes on changing meanwhile.
    const picked = sample(Array.from(chosen.entries(), (e) => e.trackKey), this.maxPoints).map((trackKey) => ({ trackKey, vector: chosen.vectorOf(trackKey)! }));

    const analyses = new Map<string, StoredAnalysis>();
    for (let at = 0; at < picked.length; at += READ_CHUNK) {
      const found = await this.store.getMany(picked.slice(at, at + READ_CHUNK).map((p) => p.trackKey), { segments: false });
      for (const [key, analysis] of found) analyses.set(key, analysis);
    }
    // The index and the store agree but for a moment: a track the store no longer holds is left out.
    const kept = picked.filter((p) => analyses.has(p.trackKey));
    const dims = kept[0]?.vector.length ?? 0;
    const flat = new Float32Array(kept.length * dims);
    kept.forEach((p, i) => flat.set(p.vector, i * dims));
    const positions = await projectVectors(flat, kept.length, dims);
    const points = kept.map((p, i) => pointOf(analyses.get(p.trackKey)!, positions[2 * i]!, positions[2 * i + 1]!));
    return {
      map: { kind: chosen.kind, size: points.length, total, computedAt: new Date(this.now()).toISOString(), points },
      fingerprint,
      endedAt: this.now(),
    };
  }
}

/** A point's fields from its analysis and position. */
function pointOf(analysis: StoredAnalysis, x: number, y: number): SoundMapPoint {
  const f = analysis.features;
  return {
    trackKey: analysis.trackKey,
    artist: analysis.artist,
    trackName: analysis.trackName,
    x,
    y,
    tempo: f.tempo,
    energy: f.energy,
    valence: f.valence,
    happy: f.mood.happy,
    sad: f.mood.sad,
    relaxed: f.mood.relaxed,
    aggressive: f.mood.aggressive,
    genre: topGenre(analysis),
  };
}

/** The most probable of an analysis' tags that is a kind of music, or null. */
export function topGenre(analysis: StoredAnalysis): string | null {
  let best: { name: string; probability: number } | undefined;
  for (const tag of analysis.features.tags ?? []) {
    if (genreSeed(tag.name) && (!best || tag.probability > best.probability)) best = tag;
  }
  return best?.name ?? null;
}

/** 32-bit FNV-1a of a string. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** At most `max` of the track keys, chosen by their hash; in order. */
function sample(keys: string[], max: number): string[] {
  const chosen =
    keys.length <= max
      ? keys
      : keys
          .map((key) => ({ key, h: hashOf(key) }))
          .sort((a, b) => a.h - b.h || (a.key < b.key ? -1 : 1))
          .slice(0, max)
          .map(({ key }) => key);
  return chosen.sort();
}

const floatBits = new Float32Array(1);
const intBits = new Uint32Array(floatBits.buffer);

/** A fingerprint of every vector an index holds (its seq and a few of its numbers), independent of their order. */
function fingerprintOf(index: SoundIndex): number {
  let sum = 0;
  let xor = 0;
  for (const { seq, vector } of index.entries()) {
    let h = Math.imul(seq | 0, 0x9e3779b1);
    for (const d of [0, vector.length >> 1, vector.length - 1]) {
      floatBits[0] = vector[d]!;
      h = Math.imul(h ^ intBits[0]!, 0x85ebca6b);
      h ^= h >>> 13;
    }
    sum = (sum + h) | 0;
    xor ^= h;
  }
  return (Math.imul(sum, 31) ^ xor ^ index.size) >>> 0;
}
