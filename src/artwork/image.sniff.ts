/**
 * The image formats artwork is served as, recognised by their signatures (the first bytes each
 * format's specification fixes), never by the type a file's tag declares: a tag saying image/png
 * over bytes of HTML would otherwise be served as a web page from the API's origin.
 *
 * Five fixed signatures are a few comparisons each; a general detector (file-type, ESM-only, so
 * loadable from this CommonJS service only through a dynamic import) would recognise a hundred
 * formats to be narrowed back to these five.
 */
export interface ImageType {
  mime: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif';
  extension: 'png' | 'jpg' | 'gif' | 'webp' | 'avif';
}

export const SERVED_IMAGE_FORMATS = 'PNG, JPEG, GIF, WebP or AVIF';
export const SERVED_IMAGE_TYPES: readonly ImageType['mime'][] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];

const ascii = (bytes: Uint8Array, at: number, text: string): boolean => {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

const startsWith = (bytes: Uint8Array, signature: readonly number[]): boolean =>
  bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);

/** PNG: the 8-byte signature of ISO/IEC 15948 §5.2. */
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** JPEG: SOI (FF D8) followed by the first marker's FF (ITU T.81 B.1.1.2). */
const JPEG = [0xff, 0xd8, 0xff];

/** WebP: a RIFF container of form type WEBP whose first chunk is VP8, VP8L or VP8X (RFC 9649 §2). */
function isWebp(bytes: Uint8Array): boolean {
  return ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP') && (ascii(bytes, 12, 'VP8 ') || ascii(bytes, 12, 'VP8L') || ascii(bytes, 12, 'VP8X'));
}

/**
 * AVIF: an ISO BMFF file whose first box is `ftyp` naming the avif (still) or avis (sequence)
 * brand, as major brand or among the compatible ones (AV1 Image File Format §9: encoders may put
 * mif1 first and avif after it).
 */
function isAvif(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || !ascii(bytes, 4, 'ftyp')) return false;
  const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  if (size < 16 || size > bytes.length) return false;
  const brandAt = (at: number): boolean => ascii(bytes, at, 'avif') || ascii(bytes, at, 'avis');
  if (brandAt(8)) return true;
  for (let at = 16; at + 4 <= size; at += 4) if (brandAt(at)) return true;
  return false;
}

/** The image format `bytes` are, by signature; undefined for anything else (HTML, SVG, text, truncated data). */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, PNG)) return { mime: 'image/png', extension: 'png' };
  if (startsWith(bytes, JPEG)) return { mime: 'image/jpeg', extension: 'jpg' };
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return { mime: 'image/gif', extension: 'gif' };
  if (isWebp(bytes)) return { mime: 'image/webp', extension: 'webp' };
  if (isAvif(bytes)) return { mime: 'image/avif', extension: 'avif' };
  return undefined;
}
