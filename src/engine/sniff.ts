import type { AudioFormat } from '../core/audio-formats';

/** The ASF header object's GUID, which opens every WMA file. */
const ASF_HEADER = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c];
/** Major brands of ISO BMFF files that are still images (HEIF, AVIF, JPEG 2000), not audio. */
const IMAGE_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'jp2 ', 'jpx ', 'jpm ']);
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

/** Recognises the container from its first bytes; undefined when it is none of ours. */
export function sniffFormat(bytes: Uint8Array): AudioFormat | undefined {
  const ascii = (offset: number, text: string): boolean =>
    bytes.length >= offset + text.length && [...text].every((ch, i) => bytes[offset + i] === ch.charCodeAt(0));
  const startsWith = (magic: readonly number[]): boolean => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
  if ((ascii(0, 'RIFF') || ascii(0, 'RF64')) && ascii(8, 'WAVE')) return 'wav';
  if (ascii(0, 'FORM') && (ascii(8, 'AIFF') || ascii(8, 'AIFC'))) return 'aiff';
  if (ascii(0, 'fLaC')) return 'flac';
  if (ascii(0, 'wvpk')) return 'wv';
  if (ascii(0, 'TTA1')) return 'tta';
  if (ascii(0, 'caff')) return 'caf';
  if (startsWith(ASF_HEADER)) return 'wma';
  if (startsWith(EBML_MAGIC)) return 'webm';
  // ISO BMFF (MP4, M4A, 3GP, QuickTime with a file type box); a HEIF/AVIF image has one too.
  if (ascii(4, 'ftyp')) return IMAGE_BRANDS.has(String.fromCharCode(...bytes.subarray(8, 12))) ? undefined : 'm4a';
  if (ascii(0, 'OggS')) {
    // The first page carries the codec's identification header right after its segment table.
    const segments = bytes[26] ?? 0;
    const body = 27 + segments;
    if (ascii(body, 'OpusHead')) return 'opus';
    if (bytes[body] === 1 && ascii(body + 1, 'vorbis')) return 'oga';
    // Ogg FLAC (the FLAC decoder reads both framings).
    if (bytes[body] === 0x7f && ascii(body + 1, 'FLAC')) return 'flac';
    return undefined;
  }
  let offset = 0;
  if (ascii(0, 'ID3') && bytes.length >= 10) {
    // ID3v2 size is "syncsafe": 4 x 7 bits, after a 10-byte header (+10 with a footer).
    const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
    offset = 10 + size + ((bytes[5]! & 0x10) !== 0 ? 10 : 0);
    if (ascii(offset, 'fLaC')) return 'flac';
    if (ascii(offset, 'TTA1')) return 'tta';
  }
  // Dolby and DTS streams start with their first frame (after a tag, if any).
  for (const frameAt of [dolbyFrame, dtsFrame]) {
    const first = frameAt(bytes, offset);
    if (!first) continue;
    const next = offset + first.length;
    if (next + 8 > bytes.length) return first.format;
    if (frameAt(bytes, next)?.signature === first.signature) return first.format;
  }
  // Some files pad between the tag and the first frame: look a little further for two
  // consecutive frame headers (one alone turns up by chance every few KB of random bytes).
  const limit = Math.min(bytes.length - 4, offset + 16384);
  for (let i = offset; i < limit; i++) {
    if (bytes[i] !== 0xff) continue;
    const frame = mpegFrame(bytes, i) ?? adtsFrame(bytes, i);
    if (!frame) continue;
    const next = i + frame.length;
    if (next + 4 > bytes.length) return frame.format;
    const second = frame.format === 'mp3' ? mpegFrame(bytes, next) : adtsFrame(bytes, next);
    if (second && second.signature === frame.signature) return frame.format;
  }
  return undefined;
}

/** One frame of a raw stream: its length in bytes and what must repeat in the next frame's header. */
interface Frame {
  format: 'mp3' | 'aac' | 'ac3' | 'eac3' | 'dts';
  length: number;
  signature: number;
}

/** AC-3 bit rates, kbit/s, by frame size code pair (frmsizecod >> 1); a frame is 1536 samples. */
const AC3_BITRATES = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640];
const AC3_RATES = [48000, 44100, 32000];

/**
 * The AC-3 or E-AC-3 frame whose header starts at `i` (ATSC A/52): sync 0x0B77, then a bit stream
 * id of 8 or less (AC-3: the length from the sample rate and bit rate codes) or 11 to 16 (E-AC-3:
 * the length in the header).
 */
function dolbyFrame(bytes: Uint8Array, i: number): Frame | undefined {
  const b2 = bytes[i + 2];
  const b3 = bytes[i + 3];
  const b4 = bytes[i + 4];
  const b5 = bytes[i + 5];
  if (bytes[i] !== 0x0b || bytes[i + 1] !== 0x77 || b2 === undefined || b3 === undefined || b4 === undefined || b5 === undefined) return undefined;
  const bsid = b5 >> 3;
  const fscod = b4 >> 6;
  if (bsid <= 8) {
    const code = b4 & 0x3f;
    if (fscod === 3 || code >= 38) return undefined;
    const kbps = AC3_BITRATES[code >> 1]!;
    const words = Math.floor((kbps * 1000 * 1536) / (AC3_RATES[fscod]! * 16)) + (fscod === 1 ? code & 1 : 0);
    return { format: 'ac3', length: words * 2, signature: (fscod << 5) | bsid };
  }
  if (bsid >= 11 && bsid <= 16) {
    const words = (((b2 & 0x07) << 8) | b3) + 1;
    return { format: 'eac3', length: words * 2, signature: (fscod << 5) | bsid };
  }
  return undefined;
}

/** The DTS core frame (16-bit big-endian) whose header starts at `i`: sync 0x7FFE8001, its length in the header. */
function dtsFrame(bytes: Uint8Array, i: number): Frame | undefined {
  const b5 = bytes[i + 5];
  const b6 = bytes[i + 6];
  const b7 = bytes[i + 7];
  const b8 = bytes[i + 8];
  if (bytes[i] !== 0x7f || bytes[i + 1] !== 0xfe || bytes[i + 2] !== 0x80 || bytes[i + 3] !== 0x01) return undefined;
  if (b5 === undefined || b6 === undefined || b7 === undefined || b8 === undefined) return undefined;
  const length = (((b5 & 0x03) << 12) | (b6 << 4) | (b7 >> 4)) + 1;
  if (length < 96) return undefined;
  // Channel arrangement and sample rate must repeat.
  return { format: 'dts', length, signature: ((b7 & 0x0f) << 6) | (b8 >> 2) };
}

/** The ADTS (raw AAC) frame whose header starts at `i`: sync, layer 0, a sampling rate, its length. */
function adtsFrame(bytes: Uint8Array, i: number): Frame | undefined {
  const b1 = bytes[i + 1];
  const b2 = bytes[i + 2];
  const b3 = bytes[i + 3];
  const b4 = bytes[i + 4];
  const b5 = bytes[i + 5];
  if (bytes[i] !== 0xff || b1 === undefined || b2 === undefined || b3 === undefined || b4 === undefined || b5 === undefined) return undefined;
  if ((b1 & 0xf6) !== 0xf0) return undefined;
  const rateIndex = (b2 >> 2) & 0x0f;
  if (rateIndex > 12) return undefined;
  const length = ((b3 & 0x03) << 11) | (b4 << 3) | (b5 >> 5);
  const headerLength = (b1 & 1) === 1 ? 7 : 9;
  if (length <= headerLength) return undefined;
  return { format: 'aac', length, signature: ((b1 & 0x08) << 8) | (rateIndex << 4) | ((b2 & 1) << 2) | (b3 >> 6) };
}

const MPEG_BITRATES: Record<string, readonly number[]> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MPEG_RATES: Record<number, readonly number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** The MPEG audio frame whose header starts at `i`: its length in bytes and what must repeat. */
function mpegFrame(bytes: Uint8Array, i: number): Frame | undefined {
  const b1 = bytes[i + 1];
  const b2 = bytes[i + 2];
  if (bytes[i] !== 0xff || b1 === undefined || b2 === undefined || (b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 3;
  const layer = 4 - ((b1 >> 1) & 3);
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layer === 4 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const bitrate = MPEG_BITRATES[`${versionBits === 3 ? 1 : 2}-${layer}`]![bitrateIndex]! * 1000;
  const rate = MPEG_RATES[versionBits]![rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const length =
    layer === 1
      ? (Math.floor((12 * bitrate) / rate) + padding) * 4
      : Math.floor(((layer === 3 && versionBits !== 3 ? 72 : 144) * bitrate) / rate) + padding;
  return { format: 'mp3', length, signature: (b1 & 0xfe) * 4 + rateIndex };
}
