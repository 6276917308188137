import { inflateSync, crc32 } from 'node:zlib';
import { sniffImage } from '../../../src/artwork/image.sniff';
import { PLACEHOLDER_SIZE, placeholderPng } from '../../../src/artwork/placeholder';

/** The chunks of a PNG, each checked against its CRC-32. */
function chunks(png: Buffer): { type: string; data: Buffer }[] {
  const found: { type: string; data: Buffer }[] = [];
  let at = 8;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(data, crc32(Buffer.from(type, 'latin1'))));
    found.push({ type, data });
    at += 12 + length;
  }
  return found;
}

/** The RGB pixels of an 8-bit truecolour PNG whose rows use the None or Up filter. */
function pixels(png: Buffer): { width: number; height: number; rgb: Uint8Array } {
  const parts = chunks(png);
  const header = parts[0]!.data;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([...header.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
  const raw = inflateSync(Buffer.concat(parts.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = width * 3;
  expect(raw.length).toBe(height * (stride + 1));
  const rgb = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    expect([0, 2]).toContain(filter);
    for (let x = 0; x < stride; x++) {
      const above = y > 0 && filter === 2 ? rgb[(y - 1) * stride + x]! : 0;
      rgb[y * stride + x] = (raw[y * (stride + 1) + 1 + x]! + above) & 0xff;
    }
  }
  return { width, height, rgb };
}

describe('placeholder pictures', () => {
  it('is a valid PNG that the artwork route’s sniffing takes for one: signature, IHDR, IDAT, IEND, every CRC right', () => {
    const png = placeholderPng('bc24aaa5a97c70ed');
    expect(sniffImage(png)).toEqual({ mime: 'image/png', extension: 'png' });
    expect(chunks(png).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const { width, height } = pixels(png);
    expect([width, height]).toEqual([PLACEHOLDER_SIZE, PLACEHOLDER_SIZE]);
  });

  it('is the same bytes for the same key, and other colours for another key', () => {
    const a = placeholderPng('bc24aaa5a97c70ed');
    expect(placeholderPng('bc24aaa5a97c70ed').equals(a)).toBe(true);
    const corner = (key: string) => [...pixels(placeholderPng(key)).rgb.subarray(0, 3)];
    expect(corner('f63116f780b3b1eb')).not.toEqual(corner('bc24aaa5a97c70ed'));
    // Each key's colours: thirty keys, thirty different corners.
    const keys = Array.from({ length: 30 }, (_, i) => (BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).slice(-16).padStart(16, '0'));
    expect(new Set(keys.map((k) => corner(k).join(','))).size).toBe(30);
  });

  it('is small: a few kilobytes', () => {
    for (const key of ['bc24aaa5a97c70ed', '0000000000000000', 'ffffffffffffffff']) expect(placeholderPng(key).length).toBeLessThan(8 * 1024);
  });

  it('shows a record on a gradient: dark in the middle ring, the label’s colour at the centre, the gradient at the corners', () => {
    const { rgb } = pixels(placeholderPng('bc24aaa5a97c70ed'));
    const at = (x: number, y: number) => [...rgb.subarray((y * PLACEHOLDER_SIZE + x) * 3, (y * PLACEHOLDER_SIZE + x) * 3 + 3)];
    const brightness = (p: number[]) => p[0]! + p[1]! + p[2]!;
    const c = PLACEHOLDER_SIZE / 2;
    expect(brightness(at(c + 25, c))).toBeLessThan(200);
    expect(brightness(at(c + 8, c))).toBeGreaterThan(brightness(at(c + 25, c)));
    expect(at(0, 0)).not.toEqual(at(PLACEHOLDER_SIZE - 1, PLACEHOLDER_SIZE - 1));
  });
});
