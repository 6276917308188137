/**
 * A FLAC encoder of the simplest kind the format allows: mono, 16-bit, fixed 4096-sample blocks,
 * every subframe VERBATIM (no prediction, so the file is as large as the PCM). Enough to make a
 * FLAC of any length in code, where no encoder is installed, for the benchmarks.
 */
const BLOCK = 4096;

function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The frame number as FLAC writes it: UTF-8's coding of a number. */
function utf8Number(n: number): number[] {
  if (n < 0x80) return [n];
  if (n < 0x800) return [0xc0 | (n >> 6), 0x80 | (n & 0x3f)];
  if (n < 0x10000) return [0xe0 | (n >> 12), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
  return [0xf0 | (n >> 18), 0x80 | ((n >> 12) & 0x3f), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
}

const RATE_CODES: Record<number, number> = { 8000: 4, 16000: 5, 22050: 6, 24000: 7, 32000: 8, 44100: 9, 48000: 10, 96000: 11 };

export function encodeFlac(samples: Float32Array, sampleRate: number): Uint8Array {
  const rateCode = RATE_CODES[sampleRate];
  if (rateCode === undefined) throw new Error(`no FLAC rate code for ${sampleRate} Hz here`);
  const frames = Math.ceil(samples.length / BLOCK);
  const out = new Uint8Array(4 + 4 + 34 + frames * (16 + 2 + BLOCK * 2 + 2));
  let at = 0;
  out.set([0x66, 0x4c, 0x61, 0x43], at); // fLaC
  at += 4;
  out.set([0x80, 0, 0, 34], at); // the last metadata block: STREAMINFO, 34 bytes
  at += 4;
  const info = new DataView(out.buffer, at, 34);
  info.setUint16(0, BLOCK);
  info.setUint16(2, BLOCK);
  // Frame sizes unknown (0); rate (20 bits), channels - 1 (3), bits - 1 (5), total samples (36); no MD5.
  const total = samples.length;
  info.setUint32(10, (sampleRate << 12) | (0 << 9) | (15 << 4) | Math.floor(total / 2 ** 32));
  info.setUint32(14, total >>> 0);
  at += 34;
  for (let f = 0; f < frames; f++) {
    const start = f * BLOCK;
    const size = Math.min(BLOCK, total - start);
    const header = [0xff, 0xf8, ((size === BLOCK ? 0b1100 : 0b0111) << 4) | rateCode, (0 << 4) | (0b100 << 1), ...utf8Number(f)];
    if (size !== BLOCK) header.push((size - 1) >> 8, (size - 1) & 0xff);
    header.push(crc8(Uint8Array.from(header)));
    const frameStart = at;
    out.set(header, at);
    at += header.length;
    out[at++] = 0x02; // subframe: VERBATIM, no wasted bits
    for (let i = 0; i < size; i++) {
      const v = Math.max(-32768, Math.min(32767, Math.round(samples[start + i]! * 32767)));
      out[at++] = (v >> 8) & 0xff;
      out[at++] = v & 0xff;
    }
    const crc = crc16(out.subarray(frameStart, at));
    out[at++] = crc >> 8;
    out[at++] = crc & 0xff;
  }
  return out.subarray(0, at);
}
