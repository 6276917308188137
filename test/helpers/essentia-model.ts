import { MUSICNN_BANDS, MUSICNN_HOP, type MusicnnFrames } from '../../src/engine/models/musicnn.input';

interface TfInputExtractor {
  computeFrameWise(signal: Float32Array, hopSize: number): { melSpectrum: Float32Array[]; frameSize: number };
  delete(): void;
}

/**
 * essentia.js's MusiCNN input extractor (`EssentiaTFInputExtractor(EssentiaWASM, 'musicnn')`),
 * the reference the engine's frontend is held to. Loading essentia.js installs process-wide
 * uncaughtException/unhandledRejection handlers; they are removed again here.
 */
export async function loadEssentiaModel(): Promise<{ frames(samples16k: Float32Array): MusicnnFrames }> {
  const before = {
    exception: new Set(process.listeners('uncaughtException')),
    rejection: new Set(process.listeners('unhandledRejection')),
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- essentia.js's model module has no typings
  const { EssentiaWASM, EssentiaModel } = require('essentia.js') as {
    EssentiaWASM: unknown;
    EssentiaModel: { EssentiaTFInputExtractor: new (wasm: unknown, type: string) => TfInputExtractor };
  };
  for (const l of process.listeners('uncaughtException')) if (!before.exception.has(l)) process.off('uncaughtException', l);
  for (const l of process.listeners('unhandledRejection')) if (!before.rejection.has(l)) process.off('unhandledRejection', l);
  await Promise.resolve();
  const extractor = new EssentiaModel.EssentiaTFInputExtractor(EssentiaWASM, 'musicnn');
  return {
    frames(samples16k: Float32Array): MusicnnFrames {
      const out = extractor.computeFrameWise(samples16k, MUSICNN_HOP);
      const bands = new Float32Array(out.melSpectrum.length * MUSICNN_BANDS);
      out.melSpectrum.forEach((row, i) => bands.set(row, i * MUSICNN_BANDS));
      return { frames: out.melSpectrum.length, bands };
    },
  };
}
