import type { ArtworkUrls } from './artwork.urls';
import { LRUCache } from 'lru-cache';
import { silentLogger, type Logger } from '../core/logger';
import { checkedTrackKey } from '../core/track-key';
import type { TrackLookup } from '../core/types';
import type { MetadataCache } from '../search/metadata-cache';
import type { SourceRegistry } from '../sources/registry';
import { SERVED_IMAGE_FORMATS, sniffImage, type ImageType } from './image.sniff';
import { placeholderPng } from './placeholder';

export interface Artwork {
  /** The type the bytes are (by signature), whatever the source declared. */
  mime: ImageType['mime'];
  data: Uint8Array;
  /** True for the generated picture of a track without one of its own (placeholder.ts). */
  placeholder: boolean;
}

/** Placeholders kept in memory (about 4 KB each). */
const PLACEHOLDERS_KEPT = 1000;

/**
 * Cover art that a source holds itself (the library's embedded pictures), served by this server,
 * and a generated picture for every track that has none (placeholder.ts), so that every search
 * result has a thumbnailUrl an <img> can load. The URLs carry an HMAC of the key so that an <img>
 * tag, which cannot send a Bearer header, can load them; the signature proves the URL came from
 * an authenticated search.
 */
export class ArtworkService {
  private readonly placeholders = new LRUCache<string, Buffer>({ max: PLACEHOLDERS_KEPT });

  constructor(
    private readonly registry: SourceRegistry,
    private readonly metadata: MetadataCache,
    private readonly lookups: readonly TrackLookup[],
    private readonly urls: ArtworkUrls,
    private readonly logger: Pick<Logger, 'warn'> = silentLogger,
  ) {}

  url(trackKey: string): string {
    return this.urls.url(trackKey);
  }

  verify(trackKey: string, signature: string): boolean {
    return this.urls.verify(trackKey, signature);
  }

  /**
   * The picture of a key, typed by its bytes; the key's placeholder when no source holds one.
   * A picture a tag declares as anything (text/html included) is untrusted data: only the five
   * image formats browsers render as images are served, and only as the type their signature
   * says; anything else is never served (the placeholder is, in its place), rather than served
   * from the API's origin, where a browser might run it. INVALID_ARGUMENT for a key that is not
   * 16 hex characters.
   */
  async artwork(key: string): Promise<Artwork> {
    const trackKey = checkedTrackKey(key);
    const art = await this.stored(trackKey);
    if (art) {
      const type = sniffImage(art.data);
      if (type) return { mime: type.mime, data: art.data, placeholder: false };
      this.logger.warn({ trackKey }, `artwork: the picture stored for this track is not a ${SERVED_IMAGE_FORMATS} image; its placeholder is served instead`);
    }
    return { mime: 'image/png', data: this.placeholder(trackKey), placeholder: true };
  }

  /** The generated picture of a key (the same bytes every time). */
  placeholder(trackKey: string): Buffer {
    let png = this.placeholders.get(trackKey);
    if (png === undefined) {
      png = placeholderPng(trackKey);
      this.placeholders.set(trackKey, png);
    }
    return png;
  }

  /** The picture a source holds for a key, if any; a source failing to read it counts as none. */
  private async stored(trackKey: string): Promise<{ mime: string; data: Uint8Array } | undefined> {
    const track = await this.metadata.find(trackKey, this.lookups);
    const source = track && this.registry.artworkSource(track.source);
    if (!track || !source) return undefined;
    try {
      return await source.artwork(track);
    } catch (error) {
      this.logger.warn({ trackKey, source: track.source, err: error }, 'artwork: the picture could not be read; the placeholder is served instead');
      return undefined;
    }
  }
}
