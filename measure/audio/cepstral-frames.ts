import { dctBasis, melFilterbank, melPowers } from '../../src/engine/signal.mel';
import { BINS, Stft } from '../../src/engine/signal.stft';

/**
 * The frame-level timbre a bag-of-frames model reads (measure/fit/gmm.ts): for every second frame
 * of the engine's spectrogram (93 ms frames every 46 ms at 22.05 kHz), 20 mel-frequency cepstral
 * coefficients (40 mel bands from 30 Hz to 8 kHz, log10 power, DCT-II) and their change across
 * the frame (the frame after's less the frame before's): 40 numbers a frame. The window's own
 * statistics (timbre.shape.ts) keep 13 coefficients on every fourth frame, summed up at once;
 * here every frame is kept so that a mixture of Gaussians can be fitted to them.
 */
export const CEPSTRAL_COEFFICIENTS = 20;
export const CEPSTRAL_DIMS = 2 * CEPSTRAL_COEFFICIENTS;
const BANDS = 40;
const STEP = 2;
const FLOOR = 1e-10;
const MEL = melFilterbank(BANDS, 30, 8000);
const DCT = dctBasis(CEPSTRAL_COEFFICIENTS, BANDS);

/** The frames of a window (mono samples at the engine's 44.1 kHz), row-major: rows × CEPSTRAL_DIMS. */
export function cepstralFrames(samples: Float32Array, stft: Stft = new Stft()): Float32Array {
  const spec = stft.spectrogram(stft.halfRate(samples));
  const rows = Math.ceil(spec.frames / STEP);
  const coefficients = new Float64Array(rows * CEPSTRAL_COEFFICIENTS);
  const power = new Float64Array(BINS);
  const bands = new Float64Array(BANDS);
  for (let r = 0; r < rows; r++) {
    const at = r * STEP * BINS;
    for (let k = MEL.firstBin; k <= MEL.lastBin; k++) power[k] = spec.mags[at + k]! ** 2;
    melPowers(MEL, power, bands);
    for (let b = 0; b < BANDS; b++) bands[b] = Math.log10(bands[b]! + FLOOR);
    for (let c = 0; c < CEPSTRAL_COEFFICIENTS; c++) {
      let v = 0;
      for (let b = 0; b < BANDS; b++) v += DCT[c]![b]! * bands[b]!;
      coefficients[r * CEPSTRAL_COEFFICIENTS + c] = v;
    }
  }
  const out = new Float32Array(rows * CEPSTRAL_DIMS);
  for (let r = 0; r < rows; r++) {
    const before = Math.max(0, r - 1) * CEPSTRAL_COEFFICIENTS;
    const after = Math.min(rows - 1, r + 1) * CEPSTRAL_COEFFICIENTS;
    for (let c = 0; c < CEPSTRAL_COEFFICIENTS; c++) {
      out[r * CEPSTRAL_DIMS + c] = coefficients[r * CEPSTRAL_COEFFICIENTS + c]!;
      out[r * CEPSTRAL_DIMS + CEPSTRAL_COEFFICIENTS + c] = coefficients[after + c]! - coefficients[before + c]!;
    }
  }
  return out;
}
