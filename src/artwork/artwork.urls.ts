import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed artwork URLs: `<publicUrl>/api/audio/artwork/<trackKey>?sig=…`, the signature an HMAC of
 * the key, so the route serves only pictures of keys this deployment handed out. Made before the
 * sources (which put these URLs in what they answer) and the artwork service that serves them.
 */
export class ArtworkUrls {
  constructor(
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

  private sign(trackKey: string): string {
    return createHmac('sha256', this.secret).update(trackKey).digest('base64url').slice(0, 32);
  }
}
