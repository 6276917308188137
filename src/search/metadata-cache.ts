import type { TrackLookup, TrackMetadata } from '../core/types';
import type { BestEffortCache } from './keyv-store';

/**
 * trackKey -> the metadata search returned for it, including where its audio is. This is the
 * contract's "temporary cache" that lets a later analysis request find its source.
 */
export class MetadataCache {
  constructor(private readonly cache: BestEffortCache<TrackMetadata>) {}

  get(trackKey: string): Promise<TrackMetadata | undefined> {
    return this.cache.get(trackKey);
  }

  /**
   * A key's metadata as search cached it, else from the first of `catalogue` (sources that know
   * their own tracks by key: the library) that has it: what a key names when the cache does not
   * hold it (expired, unreachable, or another node's write lost).
   */
  async find(trackKey: string, catalogue: readonly TrackLookup[] = []): Promise<TrackMetadata | undefined> {
    const cached = await this.get(trackKey);
    if (cached) return cached;
    for (const source of catalogue) {
      const found = source.lookup(trackKey);
      if (found) return found;
    }
    return undefined;
  }

  async putAll(tracks: readonly TrackMetadata[]): Promise<void> {
    await Promise.all(tracks.map((t) => this.cache.set(t.trackKey, t)));
  }
}
