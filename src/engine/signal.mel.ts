import { BINS, BIN_HZ } from './signal.stft';

/**
 * A triangular mel filterbank over the spectrogram's bins (signal.stft.ts), and the DCT-II basis
 * that turns its band levels into cepstral coefficients. `bands` triangles whose corners are
 * evenly spaced on the mel scale (2595·log10(1 + f/700)) from `loHz` to `hiHz`: each rises from
 * one corner to the next and falls to the one after, so every bin between the first and the last
 * corner feeds at most two neighbouring bands, its weights summing to 1. The segments' timbre
 * (segments.ts) and the window's spectral shape (timbre.shape.ts) both read it.
 */
export interface MelFilterbank {
  bands: number;
  /** For every bin, the band its rising slope feeds (-1: none); the band below gets the falling rest. */
  lower: Int16Array;
  /** The bin's weight in `lower` (the band below gets 1 − it). */
  lowerWeight: Float64Array;
  firstBin: number;
  lastBin: number;
}

const mel = (hz: number): number => 2595 * Math.log10(1 + hz / 700);
const hzOfMel = (m: number): number => 700 * (10 ** (m / 2595) - 1);

export function melFilterbank(bands: number, loHz: number, hiHz: number): MelFilterbank {
  const corners = Array.from({ length: bands + 2 }, (_, i) => hzOfMel(mel(loHz) + ((mel(hiHz) - mel(loHz)) * i) / (bands + 1)));
  const lower = new Int16Array(BINS).fill(-1);
  const lowerWeight = new Float64Array(BINS);
  for (let k = 1; k < BINS; k++) {
    const hz = k * BIN_HZ;
    // Bin k lies between corners j and j + 1: it rises in band j (whose peak is corner j + 1) and falls in band j - 1.
    for (let j = 0; j + 1 < corners.length; j++) {
      if (hz >= corners[j]! && hz < corners[j + 1]!) {
        lower[k] = j;
        lowerWeight[k] = (hz - corners[j]!) / (corners[j + 1]! - corners[j]!);
        break;
      }
    }
  }
  const firstBin = lower.findIndex((j) => j >= 0);
  let lastBin = BINS - 1;
  while (lastBin > firstBin && lower[lastBin]! < 0) lastBin--;
  return { bands, lower, lowerWeight, firstBin, lastBin };
}

/** Sums a power spectrum (one value per bin) into the filterbank's bands: `out` is overwritten. */
export function melPowers(fb: MelFilterbank, power: Float64Array, out: Float64Array): void {
  out.fill(0);
  for (let k = fb.firstBin; k <= fb.lastBin; k++) {
    const j = fb.lower[k]!;
    const p = power[k]!;
    const w = fb.lowerWeight[k]!;
    if (j < fb.bands) out[j]! += w * p;
    if (j > 0) out[j - 1]! += (1 - w) * p;
  }
}

/** The log10 band powers of spectrogram frame `frame` (magnitudes `mags`, BINS a frame), each band's power plus `floor`: `power` is scratch, `out` is overwritten. */
export function frameLogMel(fb: MelFilterbank, mags: Float32Array, frame: number, power: Float64Array, out: Float64Array, floor: number): void {
  const row = frame * BINS;
  for (let k = fb.firstBin; k <= fb.lastBin; k++) {
    const m = mags[row + k]!;
    power[k] = m * m;
  }
  melPowers(fb, power, out);
  for (let b = 0; b < fb.bands; b++) out[b] = Math.log10(out[b]! + floor);
}

/** The cepstrum of a frame's log band powers: out[at + c] = Σ_b basis[c][b] · bands[b], one number per row of the DCT basis. */
export function cepstrumInto(basis: readonly Float64Array[], bands: Float64Array, out: Float64Array, at = 0): void {
  for (let c = 0; c < basis.length; c++) {
    const row = basis[c]!;
    let v = 0;
    for (let b = 0; b < row.length; b++) v += row[b]! * bands[b]!;
    out[at + c] = v;
  }
}

/** The DCT-II basis: coefficient c's row holds cos(πc(b + ½)/bands) for each band b. */
export function dctBasis(coefficients: number, bands: number): Float64Array[] {
  return Array.from({ length: coefficients }, (_, c) => Float64Array.from({ length: bands }, (_, b) => Math.cos((Math.PI * c * (b + 0.5)) / bands)));
}
