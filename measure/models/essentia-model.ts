import { resample } from 'wave-resampler';
import { MUSICNN_BANDS, MUSICNN_HOP, MUSICNN_RATE, type MusicnnFrames } from '../../src/engine/models/musicnn.input';

/**
 * A window at 16 kHz as the references feed essentia.js: wave-resampler's windowed sinc (the
 * demo leaves this to the browser). wave-resampler low-passes its input in place: it gets a copy.
 */
export function resampleForEssentia(samples: Float32Array, sampleRate: number): Float32Array {
  return Float32Array.from(resample(samples.slice(), sampleRate, MUSICNN_RATE, { method: 'sinc' }));
}

/** What essentia.js's extractor gives: one row of mel bands per frame, and the patch layout. */
export interface EssentiaMusicnnInput {
  melSpectrum: Float32Array[];
  frameSize: number;
  melBandsSize: number;
  patchSize: number;
}

export interface TfInputExtractor {
  computeFrameWise(signal: Float32Array, hopSize: number): EssentiaMusicnnInput;
  delete(): void;
}

/** essentia.js's TensorflowMusiCNN (its mood-classifiers demo's predictor), and the parts predict() is made of. */
export interface EssentiaMusicnn {
  initialize(): Promise<void>;
  predict(input: EssentiaMusicnnInput, zeroPadding: boolean): Promise<number[][]>;
  arrayToTensorAsBatches(rows: Float32Array[], shape: [number, number], patchSize: number, zeroPadding: boolean): unknown;
  disambiguateExtraInputs(): unknown[];
  model: { execute(inputs: unknown[], outputs: string): { array(): Promise<number[][]>; dispose(): void } };
  dispose(): void;
}

export interface EssentiaModelModule {
  EssentiaTFInputExtractor: new (wasm: unknown, type: string) => TfInputExtractor;
  TensorflowMusiCNN: new (tf: unknown, model: unknown) => EssentiaMusicnn;
}

/**
 * essentia.js's WebAssembly build and its model module. Loading essentia.js installs
 * process-wide uncaughtException/unhandledRejection handlers; they are removed again here.
 */
export async function loadEssentia(): Promise<{ wasm: unknown; model: EssentiaModelModule }> {
  const before = {
    exception: new Set(process.listeners('uncaughtException')),
    rejection: new Set(process.listeners('unhandledRejection')),
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- essentia.js's model module has no typings
  const { EssentiaWASM, EssentiaModel } = require('essentia.js') as { EssentiaWASM: unknown; EssentiaModel: EssentiaModelModule };
  for (const l of process.listeners('uncaughtException')) if (!before.exception.has(l)) process.off('uncaughtException', l);
  for (const l of process.listeners('unhandledRejection')) if (!before.rejection.has(l)) process.off('unhandledRejection', l);
  await Promise.resolve();
  return { wasm: EssentiaWASM, model: EssentiaModel };
}

/**
 * essentia.js's MusiCNN input extractor (`EssentiaTFInputExtractor(EssentiaWASM, 'musicnn')`),
 * the reference the engine's frontend is held to.
 */
export async function loadEssentiaModel(): Promise<{ frames(samples16k: Float32Array): MusicnnFrames }> {
  const { wasm, model } = await loadEssentia();
  const extractor = new model.EssentiaTFInputExtractor(wasm, 'musicnn');
  return {
    frames(samples16k: Float32Array): MusicnnFrames {
      const out = extractor.computeFrameWise(samples16k, MUSICNN_HOP);
      const bands = new Float32Array(out.melSpectrum.length * MUSICNN_BANDS);
      out.melSpectrum.forEach((row, i) => bands.set(row, i * MUSICNN_BANDS));
      return { frames: out.melSpectrum.length, bands };
    },
  };
}
