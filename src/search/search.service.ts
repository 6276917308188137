import { AppError } from '../core/errors';
import type { Logger } from '../core/logger';
import { trackKey } from '../core/track-key';
import type { SearchResult, TrackCandidate, TrackMetadata } from '../core/types';
import type { SourceRegistry } from '../sources/registry';
import type { MetadataSource, SearchQuery } from '../sources/source';
import type { MetadataCache } from './metadata-cache';
import { matchScore } from './ranking';

export interface SearchServiceOptions {
  /** Each metadata source gets this long per search before it counts as failed. */
  sourceTimeoutMs: number;
}

interface Ranked {
  track: TrackMetadata;
  score: number;
}

/**
 * Which track do you mean? Queries every enabled metadata source concurrently, merges and
 * dedupes their candidates by trackKey, ranks them by match_score and remembers each returned
 * key's metadata so that analysis can find the audio later.
 */
export class SearchService {
  constructor(
    private readonly registry: SourceRegistry,
    private readonly metadata: MetadataCache,
    private readonly options: SearchServiceOptions,
    private readonly logger: Logger,
  ) {}

  async search(query: SearchQuery): Promise<SearchResult[]> {
    const ranked = await this.rank(query);
    const top = ranked.slice(0, query.limit);
    await this.metadata.putAll(top.map((r) => r.track));
    return top.map(({ track, score }) => ({
      trackName: track.trackName,
      artist: track.artist,
      ...(track.thumbnailUrl ? { thumbnailUrl: track.thumbnailUrl } : {}),
      trackKey: track.trackKey,
      match_score: score,
    }));
  }

  /**
   * Finds the track a client named by artist and title, as search would, and returns the
   * candidate whose key is `key` (and caches it), or undefined when no source has it.
   */
  async resolve(key: string, artist: string, track: string): Promise<TrackMetadata | undefined> {
    const ranked = await this.rank({ track, artist, limit: 50 });
    const found = ranked.find((r) => r.track.trackKey === key)?.track;
    if (found) await this.metadata.putAll([found]);
    return found;
  }

  private async rank(query: SearchQuery): Promise<Ranked[]> {
    const candidates = await this.gather(query);
    const byKey = new Map<string, TrackMetadata>();
    for (const c of candidates) {
      const key = trackKey(c.artist, c.trackName);
      const seen = byKey.get(key);
      byKey.set(key, seen ? this.merge(seen, c) : { ...c, trackKey: key });
    }
    const ranked = [...byKey.values()].map((track) => ({ track, score: matchScore(query, track) }));
    ranked.sort(
      (a, b) =>
        b.score - a.score ||
        this.registry.priority(a.track.source) - this.registry.priority(b.track.source) ||
        a.track.trackKey.localeCompare(b.track.trackKey),
    );
    return ranked;
  }

  /** The same recording from two sources: keep the preferred audio, fill gaps from the other. */
  private merge(kept: TrackMetadata, other: TrackCandidate): TrackMetadata {
    const preferOther =
      other.audio !== undefined &&
      (kept.audio === undefined || this.registry.priority(other.audio.source) < this.registry.priority(kept.audio.source));
    const [primary, secondary] = preferOther ? [{ ...other, trackKey: kept.trackKey }, kept] : [kept, other];
    return {
      ...primary,
      album: primary.album ?? secondary.album,
      durationMs: primary.durationMs ?? secondary.durationMs,
      thumbnailUrl: primary.thumbnailUrl ?? secondary.thumbnailUrl,
      isrc: primary.isrc ?? secondary.isrc,
    };
  }

  private async gather(query: SearchQuery): Promise<TrackCandidate[]> {
    const sources = this.registry.metadataSources();
    const settled = await Promise.allSettled(sources.map((s) => this.searchOne(s, query)));
    const candidates: TrackCandidate[] = [];
    const failures: { source: string; error: unknown }[] = [];
    settled.forEach((r, i) => {
      const source = sources[i]!.name;
      if (r.status === 'fulfilled') candidates.push(...r.value);
      else failures.push({ source, error: r.reason });
    });
    for (const f of failures) this.logger.warn({ source: f.source, err: f.error }, 'source search failed');
    if (sources.length > 0 && failures.length === sources.length) {
      const allTimedOut = failures.every((f) => f.error instanceof AppError && f.error.code === 'UPSTREAM_TIMEOUT');
      throw new AppError(
        allTimedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNAVAILABLE',
        `no source could be searched (${failures.map((f) => f.source).join(', ')}); try again later`,
      );
    }
    return candidates;
  }

  private async searchOne(source: MetadataSource, query: SearchQuery): Promise<TrackCandidate[]> {
    const signal = AbortSignal.timeout(this.options.sourceTimeoutMs);
    try {
      return await source.search(query, { signal });
    } catch (error) {
      if (signal.aborted) {
        throw new AppError('UPSTREAM_TIMEOUT', `source ${source.name} timed out`, { cause: error });
      }
      throw error;
    }
  }
}
