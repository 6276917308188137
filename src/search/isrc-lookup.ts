import { AppError } from '../core/errors';
import type { Logger } from '../core/logger';
import { trackKey } from '../core/track-key';
import type { TrackCandidate, TrackMetadata } from '../core/types';
import { isIsrcSource, type IsrcSource } from '../sources/isrc';
import type { SourceRegistry } from '../sources/registry';
import type { MetadataSource, SourceCallContext } from '../sources/source';
import { isSpotifyLinkSource, type SpotifyLinkSource } from '../sources/spotify-link';
import type { MetadataCache } from './metadata-cache';

/** Most ids whose track is remembered in this process (found ones only). */
const REMEMBERED = 10_000;

/**
 * Finds recordings by ids other than a trackKey: an ISRC (Deezer, MusicBrainz) or a Spotify
 * track id (MusicBrainz's URL relationships). Every enabled source that looks such an id up is
 * asked at once, and the first in SOURCES order that knows it is taken, preferring one with audio.
 * The track found is put in the metadata cache, as a search result is, so its analysis finds the
 * audio (a recording without audio, MusicBrainz's, is then matched to an audio source's as after
 * a search). A source that fails is passed over while another answers; when every one fails, the
 * first failure is the answer.
 */
export class IsrcLookup {
  private readonly found = new Map<string, TrackMetadata>();

  constructor(
    private readonly registry: SourceRegistry,
    private readonly metadata: MetadataCache,
    private readonly options: { sourceTimeoutMs: number },
    private readonly logger: Logger,
  ) {}

  /** The recording with this ISRC (capitals, no hyphens); undefined when no source knows it. */
  async byIsrc(isrc: string): Promise<TrackMetadata | undefined> {
    const sources = this.registry.metadataSources().filter((s): s is MetadataSource & IsrcSource => isIsrcSource(s));
    return this.lookUp(`isrc:${isrc}`, `ISRC ${isrc}`, sources, async (s, ctx) => {
      const found = await s.byIsrc(isrc, ctx);
      return found && { ...found, isrc };
    });
  }

  /** The recording a source links to this Spotify track id; undefined when none does (or no source links recordings to Spotify). */
  async bySpotifyId(spotifyId: string): Promise<TrackMetadata | undefined> {
    const sources = this.registry.metadataSources().filter((s): s is MetadataSource & SpotifyLinkSource => isSpotifyLinkSource(s));
    return this.lookUp(`spotify:${spotifyId}`, `spotify:track:${spotifyId}`, sources, (s, ctx) => s.bySpotifyTrack(spotifyId, ctx));
  }

  private async lookUp<S extends MetadataSource>(
    memo: string,
    label: string,
    sources: readonly S[],
    ask: (source: S, context: SourceCallContext) => Promise<TrackCandidate | undefined>,
  ): Promise<TrackMetadata | undefined> {
    const remembered = this.found.get(memo);
    if (remembered) return remembered;
    if (sources.length === 0) return undefined;
    const answers = await Promise.allSettled(sources.map((s) => ask(s, { signal: AbortSignal.timeout(this.options.sourceTimeoutMs) })));
    const candidates = answers.flatMap((a) => (a.status === 'fulfilled' && a.value ? [a.value] : []));
    const failures = answers.flatMap((a, i) => (a.status === 'rejected' ? [{ source: sources[i]!.name, error: a.reason as unknown }] : []));
    for (const f of failures) this.logger.warn({ source: f.source, err: f.error, id: label }, 'id lookup failed');
    const best = candidates.find((c) => c.audio !== undefined) ?? candidates[0];
    if (!best) {
      if (failures.length === sources.length) {
        const first = failures[0]!.error;
        throw first instanceof AppError ? first : new AppError('UPSTREAM_UNAVAILABLE', `no source could look up ${label}`, { cause: first });
      }
      return undefined;
    }
    const track: TrackMetadata = { ...best, trackKey: trackKey(best.artist, best.trackName) };
    await this.metadata.putAll([track]);
    if (this.found.size >= REMEMBERED) this.found.delete(this.found.keys().next().value!);
    this.found.set(memo, track);
    return track;
  }
}
