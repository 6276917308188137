import { AppError } from '../core/errors';
import type { Logger } from '../core/logger';
import { trackKey } from '../core/track-key';
import type { TrackMetadata } from '../core/types';
import { isIsrcSource, type IsrcSource } from '../sources/isrc';
import type { SourceRegistry } from '../sources/registry';
import type { MetadataSource } from '../sources/source';
import type { MetadataCache } from './metadata-cache';

/** Most ISRCs whose track is remembered in this process (found ones only). */
const REMEMBERED = 10_000;

/**
 * Finds recordings by ISRC: asks every enabled source that looks ISRCs up (Deezer, MusicBrainz)
 * at once, and takes the first in SOURCES order that knows it, preferring one with audio. The
 * track found is put in the metadata cache, as a search result is, so its analysis finds the
 * audio (a recording without audio, MusicBrainz's, is then matched to an audio source's as
 * after a search). A source that fails is passed over while another answers; when every one
 * fails, the first failure is the answer.
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
    const remembered = this.found.get(isrc);
    if (remembered) return remembered;
    const sources = this.registry.metadataSources().filter((s): s is MetadataSource & IsrcSource => isIsrcSource(s));
    if (sources.length === 0) return undefined;
    const answers = await Promise.allSettled(sources.map((s) => s.byIsrc(isrc, { signal: AbortSignal.timeout(this.options.sourceTimeoutMs) })));
    const candidates = answers.flatMap((a) => (a.status === 'fulfilled' && a.value ? [a.value] : []));
    const failures = answers.flatMap((a, i) => (a.status === 'rejected' ? [{ source: sources[i]!.name, error: a.reason as unknown }] : []));
    for (const f of failures) this.logger.warn({ source: f.source, err: f.error }, 'ISRC lookup failed');
    const best = candidates.find((c) => c.audio !== undefined) ?? candidates[0];
    if (!best) {
      if (failures.length === sources.length) {
        const first = failures[0]!.error;
        throw first instanceof AppError ? first : new AppError('UPSTREAM_UNAVAILABLE', `no source could look up ISRC ${isrc}`, { cause: first });
      }
      return undefined;
    }
    const track: TrackMetadata = { ...best, isrc, trackKey: trackKey(best.artist, best.trackName) };
    await this.metadata.putAll([track]);
    if (this.found.size >= REMEMBERED) this.found.delete(this.found.keys().next().value!);
    this.found.set(isrc, track);
    return track;
  }
}
