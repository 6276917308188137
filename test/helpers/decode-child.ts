/**
 * Decodes the files named on the command line through the engine's decode path
 * (decodeAnalysisWindow, as the worker does) and prints one JSON line per file: what was decoded,
 * with the dominant frequency of the analysis window, or the error. audio-decode is ESM-only,
 * which Jest's module system cannot load: tests run this under tsx in a process of its own.
 */
import { readFile } from 'node:fs/promises';
import { isAppError } from '../../src/core/errors';
import { keyString } from '../../src/core/music';
import { decodeAnalysisWindow } from '../../src/engine/decode';
import { keyOfSums } from '../../src/engine/tonal';
import { ANALYSIS_RATE } from '../../src/engine/window';

export interface DecodeReport {
  file: string;
  format?: string;
  durationSeconds?: number;
  sourceSampleRate?: number;
  channels?: number;
  /** Rising zero crossings per second over the middle of the window: the frequency of a pure tone. */
  frequency?: number;
  /** The key read over the whole file (present when the file is longer than its window) and the seconds it covers. */
  trackKey?: { key: string; seconds: number };
  error?: { code: string; message: string };
}

function toneFrequency(samples: Float32Array): number {
  const from = Math.floor(samples.length * 0.2);
  const to = Math.floor(samples.length * 0.8);
  let crossings = 0;
  for (let i = from + 1; i < to; i++) if (samples[i - 1]! < 0 && samples[i]! >= 0) crossings++;
  return crossings / ((to - from) / ANALYSIS_RATE);
}

function trackKeyOf(chroma: NonNullable<Awaited<ReturnType<typeof decodeAnalysisWindow>>['wholeTrack']>): DecodeReport['trackKey'] {
  const { key, mode } = keyOfSums(chroma.sustained, chroma.bass);
  return { key: keyString(key, mode), seconds: chroma.seconds };
}

async function report(file: string): Promise<DecodeReport> {
  try {
    const audio = await decodeAnalysisWindow(new Uint8Array(await readFile(file)), 30);
    return {
      file,
      format: audio.format,
      durationSeconds: audio.durationSeconds,
      sourceSampleRate: audio.sourceSampleRate,
      channels: audio.channels,
      frequency: toneFrequency(audio.samples),
      ...(audio.wholeTrack ? { trackKey: trackKeyOf(audio.wholeTrack) } : {}),
    };
  } catch (error) {
    if (isAppError(error)) return { file, error: { code: error.code, message: error.message } };
    throw error;
  }
}

async function main(): Promise<void> {
  for (const file of process.argv.slice(2)) process.stdout.write(`${JSON.stringify(await report(file))}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}
