/**
 * Writes the analysis window of each file (decodeAnalysisWindow, 44.1 kHz mono, as the engine's
 * worker decodes it) as raw little-endian float32 to `<out>/<index>.f32`:
 * `node --import tsx decode-window.ts <out> <files...>`. audio-decode is ESM-only, which Jest's
 * module system cannot load: tests run this in a process of its own (as decode-child.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeAnalysisWindow } from '../../src/engine/decode';

async function main(): Promise<void> {
  const [out, ...files] = process.argv.slice(2);
  for (const [i, file] of files.entries()) {
    const audio = await decodeAnalysisWindow(new Uint8Array(await readFile(file)), 30);
    await writeFile(path.join(out!, `${i}.f32`), new Uint8Array(audio.samples.buffer, audio.samples.byteOffset, audio.samples.byteLength));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
