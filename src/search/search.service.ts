import { TaskCancelledError, TimeoutStrategy, timeout, type TimeoutPolicy } from 'cockatiel';
import { AppError, invalidArgument, shownError } from '../core/errors';
import type { Logger } from '../core/logger';
import { trackKey } from '../core/track-key';
import type { SearchResult, TrackCandidate, TrackMetadata } from '../core/types';
import type { SourceRegistry } from '../sources/registry';
import type { MetadataSource, SearchQuery } from '../sources/source';
import { checkCandidates } from '../sources/source.validation';
import type { BestEffortCache } from './keyv-store';
import type { MetadataCache } from './metadata-cache';
import { matchScore, normaliseText } from '../core/ranking';

export interface SearchServiceOptions {
  /** Each metadata source gets this long per search before it counts as failed. */
  sourceTimeoutMs: number;
  /**
   * Answers of remote sources per normalised query (Keyv namespace `search`, TTL
   * SEARCH_CACHE_TTL_S). Only sources that declare `cacheSearches` are cached: the library
   * changes under our feet and is cheap to ask.
   */
  responseCache?: BestEffortCache<TrackCandidate[]>;
  /**
   * The thumbnailUrl of a result whose sources have no picture: the signed artwork route, which
   * serves the track's placeholder (src/artwork). Every result has one, as the contract's have.
   */
  thumbnailUrl: (trackKey: string) => string;
}

/** The furthest a page of search results may start: pages reach the 100th match at most. */
export const MAX_SEARCH_OFFSET = 50;

/** A source that could not be searched for a query: the answer holds what the others found. */
export interface SourceFailure {
  source: string;
  /** The error code (UPSTREAM_UNAVAILABLE, UPSTREAM_TIMEOUT, UPSTREAM_INVALID …), INTERNAL for an unexpected one. */
  code: string;
  message: string;
}

export interface SearchPage {
  results: SearchResult[];
  /** Whether the ranking holds matches after this page. */
  hasMore: boolean;
  /**
   * Sources that failed for this query (empty when every source answered), so "nothing found"
   * and "a catalogue could not be asked" read differently.
   */
  failedSources: SourceFailure[];
}

interface Gathered {
  candidates: TrackCandidate[];
  failures: SourceFailure[];
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
  /** One pending call per source and normalised query: concurrent identical searches share it. */
  private readonly inFlight = new Map<string, Promise<TrackCandidate[]>>();
  private readonly timeout: TimeoutPolicy;

  constructor(
    private readonly registry: SourceRegistry,
    private readonly metadata: MetadataCache,
    private readonly options: SearchServiceOptions,
    private readonly logger: Logger,
  ) {
    this.timeout = timeout(options.sourceTimeoutMs, TimeoutStrategy.Aggressive);
  }

  /** The best `limit` matches of a query (the first page). */
  async search(query: SearchQuery): Promise<SearchResult[]> {
    return (await this.searchPage(query)).results;
  }

  /**
   * One page of a query's matches: `limit` results from `offset` in the ranking, and whether
   * more follow. Every source is asked for the ranking up to the page's end (and one more, to
   * know whether there is a next page), so pages of one query are cut from the same ranking
   * as long as the sources answer alike.
   */
  async searchPage(query: SearchQuery & { offset?: number }): Promise<SearchPage> {
    const offset = query.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0 || offset > MAX_SEARCH_OFFSET) {
      throw invalidArgument(`offset must be a whole number from 0 to ${MAX_SEARCH_OFFSET}`);
    }
    const end = offset + query.limit;
    const { ranked, failures } = await this.rank({ track: query.track, ...(query.artist ? { artist: query.artist } : {}), limit: end + 1 });
    const page = ranked.slice(offset, end);
    await this.metadata.putAll(page.map((r) => r.track));
    return {
      results: page.map(({ track, score }) => ({
        trackName: track.trackName,
        artist: track.artist,
        thumbnailUrl: track.thumbnailUrl ?? this.options.thumbnailUrl(track.trackKey),
        trackKey: track.trackKey,
        match_score: score,
      })),
      hasMore: ranked.length > end,
      failedSources: failures,
    };
  }

  /**
   * Finds the track a client named by artist and title, as search would, and returns the
   * candidate whose key is `key` (and caches it), or undefined when no source has it.
   */
  async resolve(key: string, artist: string, track: string): Promise<TrackMetadata | undefined> {
    const { ranked } = await this.rank({ track, artist, limit: 50 });
    const found = ranked.find((r) => r.track.trackKey === key)?.track;
    if (found) await this.metadata.putAll([found]);
    return found;
  }

  private async rank(query: SearchQuery): Promise<{ ranked: Ranked[]; failures: SourceFailure[] }> {
    const { candidates, failures } = await this.gather(query);
    const byKey = new Map<string, TrackMetadata>();
    for (const c of candidates) {
      const key = trackKey(c.artist, c.trackName);
      const seen = byKey.get(key);
      byKey.set(key, seen ? this.merge(seen, c) : { ...c, trackKey: key });
    }
    const asked = normaliseText(query.track);
    const ranked = [...byKey.values()].map((track) => ({
      track,
      score: matchScore(query, track),
      // match_score ignores versions; among equal scores the title exactly as asked comes first.
      exact: normaliseText(track.trackName) === asked ? 1 : 0,
    }));
    ranked.sort(
      (a, b) =>
        b.score - a.score ||
        b.exact - a.exact ||
        (b.track.sourceScore ?? 0) - (a.track.sourceScore ?? 0) ||
        this.registry.priority(a.track.source) - this.registry.priority(b.track.source) ||
        a.track.trackKey.localeCompare(b.track.trackKey),
    );
    return { ranked, failures };
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
      ...(primary.sourceScore !== undefined || secondary.sourceScore !== undefined
        ? { sourceScore: Math.max(primary.sourceScore ?? 0, secondary.sourceScore ?? 0) }
        : {}),
    };
  }

  private async gather(query: SearchQuery): Promise<Gathered> {
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
      const all = (code: string): boolean => failures.every((f) => f.error instanceof AppError && f.error.code === code);
      const names = failures.map((f) => f.source).join(', ');
      if (all('UPSTREAM_INVALID')) throw new AppError('UPSTREAM_INVALID', `no source answered records within the contract (${names})`);
      throw new AppError(
        all('UPSTREAM_TIMEOUT') ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNAVAILABLE',
        `no source could be searched (${names}); try again later`,
      );
    }
    return { candidates, failures: failures.map(({ source, error }) => describeFailure(source, error)) };
  }

  /**
   * One source's candidates for a query: from the response cache, else from a call already
   * running for the same normalised query, else from a new call. Registered synchronously, so
   * 100 identical searches arriving together make one call. Only checked candidates are cached
   * or returned, and cached ones are checked again (an entry may predate a rule).
   */
  private searchOne(source: MetadataSource, query: SearchQuery): Promise<TrackCandidate[]> {
    const cached = this.options.responseCache !== undefined && source.cacheSearches === true;
    const key = `${source.name}:${queryCacheKey(query)}`;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const call = (async () => {
      if (cached) {
        const hit = await this.options.responseCache!.get(key);
        if (hit) return this.checked(source, hit);
      }
      const found = this.checked(source, await this.callSource(source, query));
      if (cached) await this.options.responseCache!.set(key, found);
      return found;
    })().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, call);
    return call;
  }

  /**
   * A source's candidates within the contract (src/sources/source.validation.ts): a candidate
   * whose artist or title fails is left out, a failing optional field (a thumbnailUrl that is not
   * http(s), say) is dropped. A source none of whose candidates holds fails UPSTREAM_INVALID
   * rather than answering "nothing found".
   */
  private checked(source: MetadataSource, found: readonly TrackCandidate[]): TrackCandidate[] {
    const { candidates, refused, dropped } = checkCandidates(found);
    if (refused.length > 0 || dropped.length > 0) {
      this.logger.warn(
        { source: source.name, refused: refused.length, dropped: [...new Set(dropped)], problem: refused[0] },
        'source records outside the contract left out',
      );
    }
    if (found.length > 0 && candidates.length === 0) {
      throw new AppError('UPSTREAM_INVALID', `source ${source.name} answered no record within the contract (${refused[0] ?? 'none'})`);
    }
    return candidates;
  }

  /**
   * Calls a source within its timeout. The timeout does not rely on the source honouring the
   * signal: a source that ignores it is abandoned when the time is up.
   */
  private async callSource(source: MetadataSource, query: SearchQuery): Promise<TrackCandidate[]> {
    try {
      return await this.timeout.execute(({ signal }) => source.search(query, { signal }));
    } catch (error) {
      if (error instanceof TaskCancelledError) {
        throw new AppError('UPSTREAM_TIMEOUT', `source ${source.name} timed out`, { cause: error });
      }
      throw error;
    }
  }
}

/**
 * The cache and coalescing key of a query: NFKC, lowercase, whitespace collapsed, so
 * "Money", " money " and "MONEY" share one upstream call. Accents and punctuation are kept:
 * they can change what a catalogue answers.
 */
export function queryCacheKey(query: SearchQuery): string {
  const norm = (v: string | undefined): string => (v ?? '').normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return JSON.stringify([norm(query.track), norm(query.artist), query.limit]);
}

/** What a client is told of a source's failure: an AppError's code and message, anything else masked (the log has it). */
function describeFailure(source: string, error: unknown): SourceFailure {
  return { source, ...shownError(error, `source ${source} failed unexpectedly`) };
}
