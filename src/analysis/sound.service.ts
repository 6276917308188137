import { AppError, invalidArgument } from '../core/errors';
import { EMBEDDINGS_SINCE, SIGNAL_EMBEDDING, modelsEmbeddingKind } from '../core/sound';
import { foldForSearch } from '../core/fold';
import { checkedTrackKey } from '../core/track-key';
import type { StoredAnalysis } from '../core/types';
import { unitVector } from '../core/vectors';
import { readRanked, type FoundAnalysis, type SimilarOptions } from './similar.read';
import type { SoundIndex, SoundNeighbour } from './store/sound.index';
import type { AnalysisStore } from './store/store';

/** Default and largest answer of similar by sound (as similar by descriptors: browse.service.ts). */
export const DEFAULT_SOUND_SIMILAR = 10;
export const MAX_SOUND_SIMILAR = 50;
/** The most neighbours similar() by sound weighs to find tracks of other artists than the seed's. */
export const MAX_OTHER_ARTISTS_CANDIDATES = 1000;
/** Default and largest number of steps of a path between two tracks. */
export const DEFAULT_PATH_STEPS = 8;
export const MAX_PATH_STEPS = 50;

export interface SoundMatch {
  analysis: StoredAnalysis;
  /** Cosine distance to what was asked (the seed, or a step's target): 0 the same sound, 1 unrelated, up to 2. */
  distance: number;
}

export interface PathStep {
  analysis: StoredAnalysis;
  /** Cosine distance from the step before (0 for the first). */
  distance: number;
  /** Cosine distance from the first track of the path (0 for the first). */
  fromStart: number;
}

/** Every sound index of the service, one per embedding kind, made and loaded on first use. */
export type SoundIndexes = (kind: string) => SoundIndex;

/**
 * Similarity by sound: the stored tracks whose sound embeddings (docs/SIMILARITY.md) lie nearest
 * a track's, a path of tracks from one to another, and the nearest to a mean of seeds (the
 * recommendations seeded by tracks). Reads the sound index and the store; starts no analysis.
 *
 * Which embedding: the models' (MODELS_DIR) where the server makes them and the seed has one,
 * else the signal path's, which every analysis from SIGNAL_EMBEDDING_SINCE on has (older engines' `signal/1` to `signal/3` no longer compare). Tracks are only ever
 * compared within one kind.
 */
export class SoundService {
  constructor(
    private readonly indexes: SoundIndexes,
    private readonly store: AnalysisStore,
    /** The analysis method of this server (`signal`, `models:<set>`): the models' embedding is preferred when it makes them. */
    private readonly method: string,
  ) {}

  /** The kinds tried for a seed, most preferred first. */
  get kinds(): string[] {
    const models = modelsEmbeddingKind(this.method);
    return models ? [models, SIGNAL_EMBEDDING] : [SIGNAL_EMBEDDING];
  }

  /** The index and vector of the first kind the track has one of; throws when it has none. */
  private async seed(trackKey: string): Promise<{ index: SoundIndex; vector: Float32Array }> {
    for (const kind of this.kinds) {
      const index = this.indexes(kind);
      await this.ready(index);
      const vector = index.vectorOf(trackKey);
      if (vector) return { index, vector };
    }
    const stored = await this.store.get(trackKey);
    if (!stored) throw new AppError('TRACK_NOT_FOUND', `no stored analysis for ${trackKey}: analyse it first`);
    throw new AppError(
      'NOT_FOUND',
      `the analysis of ${trackKey} (${stored.features.engine}) has no sound embedding of this server's kinds (${this.kinds.join(', ')}): analyses made before them (${EMBEDDINGS_SINCE}), and another server's, have none (npm run index -- --reanalyse makes them)`,
    );
  }

  /** Loads the index on first use (the first call waits for it) and applies what changed since the last call. */
  private async ready(index: SoundIndex): Promise<void> {
    await index.load();
    await index.fresh();
  }

  /**
   * The `first` stored tracks nearest by sound to the track of `key`, nearest first. With
   * `otherArtists`, the seed's own artist's tracks are passed over: the search asks for 4x the
   * answer's neighbours, then, while the answer is short, for the next ones past those read (4x
   * as many each time), up to MAX_OTHER_ARTISTS_CANDIDATES weighed in all.
   */
  async similar(key: string, first?: number | null, options: SimilarOptions = {}): Promise<SoundMatch[]> {
    const trackKey = checkedTrackKey(key);
    const limit = checkedCount('first', first, DEFAULT_SOUND_SIMILAR, MAX_SOUND_SIMILAR);
    const { index, vector } = await this.seed(trackKey);
    const exclude = new Set([trackKey]);
    if (!options.otherArtists) return this.found(index.nearest(vector, limit, exclude), limit);
    const seed = (await this.store.getMany([trackKey], { segments: false })).get(trackKey);
    if (!seed) throw new AppError('TRACK_NOT_FOUND', `no stored analysis for ${trackKey}: analyse it first`);
    const artist = foldForSearch(seed.artist);
    const kept: FoundAnalysis[] = [];
    let weighed = 0;
    for (let k = 4 * limit; kept.length < limit && k > 0; k = Math.min(4 * k, MAX_OTHER_ARTISTS_CANDIDATES - weighed)) {
      const neighbours = index.nearest(vector, k, exclude);
      kept.push(...(await readRanked(this.store, neighbours, limit - kept.length, artist)));
      if (neighbours.length < k) break;
      // A short answer read every one of them: the next search starts past them.
      for (const n of neighbours) exclude.add(n.trackKey);
      weighed += neighbours.length;
    }
    return kept.map(rounded);
  }

  /**
   * The tracks nearest to the mean of the seeds' embeddings (unit vectors averaged), the seeds
   * left out, nearest first: at most `limit`, their keys and distances only (`read` gives their
   * analyses, so a caller reads no more of them than it uses). Seeds without an embedding of the
   * kind the first seed has are left out; undefined when no seed has one (the caller ranks
   * otherwise).
   */
  async nearestToSeeds(keys: readonly string[], limit: number): Promise<SoundNeighbour[] | undefined> {
    if (keys.length === 0) return undefined;
    for (const kind of this.kinds) {
      const index = this.indexes(kind);
      await this.ready(index);
      const vectors = keys.flatMap((k) => index.vectorOf(k) ?? []);
      if (vectors.length === 0) continue;
      const mean = new Float32Array(vectors[0]!.length);
      for (const v of vectors) for (let d = 0; d < mean.length; d++) mean[d]! += v[d]!;
      return index.nearest(unitVector(mean), limit, new Set(keys));
    }
    return undefined;
  }

  /** The stored analyses of neighbours (without their segments), in their order; one the store no longer has is left out. */
  async read(neighbours: readonly SoundNeighbour[]): Promise<SoundMatch[]> {
    return this.found(neighbours, neighbours.length);
  }

  /**
   * A path of `steps` distinct stored tracks from the track of `from` to that of `to`, both ends
   * included (steps + 2 tracks): the targets lie evenly along the straight line between the two
   * embeddings (each normalised back to unit length), and each step is the stored track nearest
   * its target that the path does not hold yet. Every step is a small one when the library is
   * dense between the two; `distance` says how large each was.
   */
  async path(fromKey: string, toKey: string, steps?: number | null): Promise<PathStep[]> {
    const from = checkedTrackKey(fromKey);
    const to = checkedTrackKey(toKey);
    if (from === to) throw invalidArgument('from and to must be two different tracks');
    const count = checkedCount('steps', steps, DEFAULT_PATH_STEPS, MAX_PATH_STEPS, 0);
    const { index, vector: a } = await this.seed(from);
    const b = index.vectorOf(to);
    if (!b) {
      const stored = await this.store.get(to);
      throw stored
        ? new AppError('NOT_FOUND', `${to} has no sound embedding of the kind ${from} has (${index.kind}): npm run index -- --reanalyse makes them`)
        : new AppError('TRACK_NOT_FOUND', `no stored analysis for ${to}: analyse it first`);
    }
    const used = new Set([from, to]);
    const chosen: SoundNeighbour[] = [];
    for (let s = 1; s <= count; s++) {
      const t = s / (count + 1);
      const target = unitVector(Array.from(a, (v, d) => (1 - t) * v + t * b[d]!));
      const [next] = index.nearest(target, 1, used);
      if (!next) break;
      used.add(next.trackKey);
      chosen.push(next);
    }
    const keys = [from, ...chosen.map((c) => c.trackKey), to];
    const found = await this.store.getMany(keys, { segments: false });
    const vectors = keys.map((k) => index.vectorOf(k)!);
    return keys.flatMap((k, i) => {
      const analysis = found.get(k);
      if (!analysis) return [];
      return [{ analysis, distance: i === 0 ? 0 : round(cosineDistance(vectors[i - 1]!, vectors[i]!)), fromStart: i === 0 ? 0 : round(cosineDistance(vectors[0]!, vectors[i]!)) }];
    });
  }

  /** The analyses of neighbours found, from the store (any it no longer holds left out), at most `limit`. */
  private async found(neighbours: readonly SoundNeighbour[], limit: number): Promise<SoundMatch[]> {
    return (await readRanked(this.store, neighbours, limit)).map(rounded);
  }
}

function rounded(found: FoundAnalysis): SoundMatch {
  return { analysis: found.analysis, distance: round(found.distance) };
}

/** 1 − the cosine of two unit vectors. */
export function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return 1 - dot;
}

/** `value` (or `fallback` when it is absent), checked to be a whole number from `min` to `max`: INVALID_ARGUMENT otherwise. */
export function checkedCount(name: string, value: number | null | undefined, fallback: number, max: number, min = 1): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max) throw invalidArgument(`${name} must be a whole number from ${min} to ${max}`);
  return n;
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
