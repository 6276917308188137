import type { TrackMetadata } from '../core/types';
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

  async putAll(tracks: readonly TrackMetadata[]): Promise<void> {
    await Promise.all(tracks.map((t) => this.cache.set(t.trackKey, t)));
  }
}
