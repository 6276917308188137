import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { decodeAnalysisWindow } from '../../src/engine/decode';

/**
 * The engine's 30 s analysis window of one file of a set, decoded once: with `cache` (a folder),
 * kept there as raw float32 so that a second run of a fitting benchmark skips decoding.
 */
export async function analysisWindowOf(dir: string, file: string, cache: string | undefined): Promise<Float32Array> {
  // A file in a subfolder of the set (piano/x.flac) is kept as one name (piano--x.flac).
  const cached = cache ? join(cache, `${basename(dir)}--${file.split(/[\\/]/).join('--')}.f32`) : undefined;
  if (cached && existsSync(cached)) {
    const raw = readFileSync(cached);
    return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  }
  const { samples } = await decodeAnalysisWindow(readFileSync(join(dir, file)), 30);
  if (cached) writeFileSync(cached, samples);
  return samples;
}
