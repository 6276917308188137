import { crc32, deflateSync } from 'node:zlib';

/*
 * The picture of a track that has none: a record on a two-colour gradient, its colours and
 * the gradient's direction taken from the bytes of the track key, so that each track has its
 * own and the same one every time. A PNG written here with node:zlib (deflate and CRC-32): a
 * few hundred lines of a library for one image shape would do the same.
 */

/** Width and height, pixels: the size of a search result's picture; browsers scale a gradient well. */
export const PLACEHOLDER_SIZE = 96;

type Rgb = [number, number, number];

/** HSL (hue in degrees, saturation and lightness 0–1) to 8-bit RGB. */
function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** How much of a pixel at distance `r` from the centre a disc of `radius` covers, 0–1. */
const coverage = (radius: number, r: number): number => Math.max(0, Math.min(1, radius - r + 0.5));

/** A PNG chunk: length, type, data, CRC-32 of type and data (ISO/IEC 15948 §5.3). */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * 8-bit RGB rows (each `size * 3` bytes) as a PNG. Every row uses the Up filter: a gradient's rows
 * differ little. zlib's level 6: level 9 saves a tenth of the bytes for four times the time.
 */
function encodePng(size: number, rgb: Uint8Array): Buffer {
  const stride = size * 3;
  const filtered = Buffer.alloc((stride + 1) * size);
  for (let y = 0; y < size; y++) {
    const out = y * (stride + 1);
    filtered[out] = 2; // Up
    for (let x = 0; x < stride; x++) {
      const above = y > 0 ? rgb[(y - 1) * stride + x]! : 0;
      filtered[out + 1 + x] = (rgb[y * stride + x]! - above) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour (RGB)
  // compression, filter method and interlace: 0 (deflate, adaptive, none)
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(filtered, { level: 6 })), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * The placeholder of a track key (16 hex characters): a PNG of PLACEHOLDER_SIZE² pixels, the
 * same bytes for the same key. Bytes 0–1 of the key choose the first hue, byte 2 how far round
 * the colour wheel the second lies (60°–180°), byte 3 the saturation and byte 4 the gradient's
 * direction; a record (grooves, a label of the second colour) sits in the middle.
 */
export function placeholderPng(trackKey: string): Buffer {
  const bytes = Buffer.from(trackKey.slice(0, 16).padEnd(16, '0'), 'hex');
  const hueA = ((bytes[0]! << 8) | bytes[1]!) * (360 / 65536);
  const hueB = (hueA + 60 + (bytes[2]! / 255) * 120) % 360;
  const saturation = 0.45 + (bytes[3]! / 255) * 0.3;
  const angle = (bytes[4]! / 256) * 2 * Math.PI;
  const from = hsl(hueA, saturation, 0.58);
  const to = hsl(hueB, saturation, 0.36);
  const label = hsl(hueB, saturation + 0.1, 0.62);
  const vinyl: Rgb = [24, 24, 28];
  const groove: Rgb = [44, 44, 50];

  const size = PLACEHOLDER_SIZE;
  const c = (size - 1) / 2;
  const [dx, dy] = [Math.cos(angle), Math.sin(angle)];
  // The gradient runs across the whole square whatever its direction.
  const reach = c * (Math.abs(dx) + Math.abs(dy));
  const disc = size * 0.4;
  const labelRadius = size * 0.15;
  const hole = size * 0.025;
  const rgb = new Uint8Array(size * size * 3);
  // Plain numbers in the loop: 9,216 pixels, a few blends each.
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = ((x - c) * dx + (y - c) * dy) / (2 * reach) + 0.5;
      const r = Math.sqrt((x - c) * (x - c) + (y - c) * (y - c));
      const record = Math.floor(r / 3) % 2 === 0 ? vinyl : groove;
      // Edges a pixel wide, blended by coverage, so the record stays round when scaled.
      const onDisc = coverage(disc, r);
      const onLabel = coverage(labelRadius, r);
      const onHole = coverage(hole, r);
      const at = (y * size + x) * 3;
      for (let i = 0; i < 3; i++) {
        const background = from[i]! + (to[i]! - from[i]!) * t;
        let v = background + (record[i]! - background) * onDisc;
        v += (label[i]! - v) * onLabel;
        v += (background - v) * onHole;
        rgb[at + i] = Math.round(v);
      }
    }
  }
  return encodePng(size, rgb);
}
