/**
 * Sound embeddings' vectors as bytes (migration 0013 stores them so) and at unit length (the sound
 * index compares them by cosine).
 */

/** A vector as little-endian 32-bit floats. */
export function encodeVector(vector: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return bytes;
}

/** The vector of little-endian 32-bit floats `bytes` holds; undefined when empty, ragged, or holding a number that is not finite. */
export function decodeVector(bytes: Uint8Array): Float32Array | undefined {
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) return undefined;
  const out = new Float32Array(bytes.byteLength >> 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) {
    out[i] = view.getFloat32(i * 4, true);
    if (!Number.isFinite(out[i])) return undefined;
  }
  return out;
}

/** `v` scaled to unit length (all 0 stays all 0). */
export function unitVector(v: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from({ length: v.length }, (_, i) => v[i]! * scale);
}
