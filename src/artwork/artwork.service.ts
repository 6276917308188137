import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../core/errors';
import type { TrackMetadata } from '../core/types';
import type { MetadataCache } from '../search/metadata-cache';
import type { SourceRegistry } from '../sources/registry';
import { SERVED_IMAGE_FORMATS, sniffImage, type ImageType } from './image.sniff';

export interface Artwork {
  /** The type the bytes are (by signature), whatever the source declared. */
  mime: ImageType['mime'];
  data: Uint8Array;
}

/** Finds a track's metadata without a search (the library knows its own files). */
export interface TrackLookup {
  lookup(trackKey: string): TrackMetadata | undefined;
}

/**
 * Cover art that a source holds itself (the library's embedded pictures), served by this server.
 * Its URLs carry an HMAC of the key so that an <img> tag, which cannot send a Bearer header,
 * can load them; the signature proves the URL came from an authenticated search.
 */
export class ArtworkService {
  constructor(
    private readonly registry: SourceRegistry,
    private readonly metadata: MetadataCache,
    private readonly lookups: readonly TrackLookup[],
    private readonly secret: Buffer,
    private readonly publicUrl: string,
  ) {}

  url(trackKey: string): string {
    return `${this.publicUrl}/api/audio/artwork/${trackKey}?sig=${this.sign(trackKey)}`;
  }

  verify(trackKey: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(trackKey));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * The picture of a key, typed by its bytes. A picture a tag declares as anything (text/html
   * included) is untrusted data: only the five image formats browsers render as images are served,
   * and only as the type their signature says; anything else is refused rather than served from
   * the API's origin, where a browser might run it.
   */
  async artwork(trackKey: string): Promise<Artwork> {
    const track = (await this.metadata.get(trackKey)) ?? this.lookups.map((l) => l.lookup(trackKey)).find(Boolean);
    const source = track && this.registry.artworkSource(track.source);
    const art = track && source ? await source.artwork(track) : undefined;
    if (!art) throw new AppError('TRACK_NOT_FOUND', `no artwork is stored for trackKey ${trackKey}`);
    const type = sniffImage(art.data);
    if (!type) {
      throw new AppError('NOT_FOUND', `the artwork stored for trackKey ${trackKey} is not a ${SERVED_IMAGE_FORMATS} image; it is not served`);
    }
    return { mime: type.mime, data: art.data };
  }

  private sign(trackKey: string): string {
    return createHmac('sha256', this.secret).update(trackKey).digest('base64url').slice(0, 32);
  }
}
