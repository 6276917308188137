import type { Essentia } from 'essentia.js';
import { withVector } from './essentia';
import { clamp01, forEachSpectrum } from './signal';

/**
 * Key, mode and chroma.
 *
 * Key and mode come from essentia's KeyExtractor with the `shaath` profile, chosen by measurement
 * on 120 rendered songs (MIREX 0.958; KeyExtractor with bgate 0.936, edma 0.945). The mean chroma
 * the descriptors need is not among KeyExtractor's outputs, so it is computed here in JS (spectral
 * peaks folded onto 12 tuning-corrected pitch classes, HPCP-style); essentia's `Key` on that
 * profile is a second, independent opinion used for the mode confidence. Polyphonic profile
 * expansion is off: the profile already counts harmonics, and it cost 20-40 points here.
 */
export interface TonalResult {
  key: number;
  mode: 0 | 1;
  keyConfidence: number;
  modeConfidence: number;
  strength: number;
  chroma: number[];
}

const SAMPLE_RATE = 44100;
const FRAME = 4096;
const HOP = 4096;
const MIN_HZ = 25;
const MAX_HZ = 3500;
const MAX_PEAKS = 60;
/** Each peak also counts for the pitch classes of its possible fundamentals f/2..f/4, as HPCP does. */
const HARMONICS = 4;
/** Per-frame pitch classes below this share of the frame's strongest are noise (KeyExtractor's pcpThreshold). */
const PCP_THRESHOLD = 0.2;
/** Measured on 120 rendered songs: shaath best for both KeyExtractor and the JS chroma (see BENCHMARKS.md). */
const PROFILE = 'shaath';

const NAMES: Record<string, number> = {
  C: 0, 'C#': 1, Db: 1, D: 2, 'D#': 3, Eb: 3, E: 4, F: 5, 'F#': 6, Gb: 6, G: 7, 'G#': 8, Ab: 8, A: 9, 'A#': 10, Bb: 10, B: 11,
};

interface Peak {
  hz: number;
  mag: number;
}

/** Local maxima of one magnitude spectrum, frequency refined by parabolic interpolation on dB. */
function spectralPeaks(mags: Float64Array, binHz: number, floor: number, out: Peak[]): void {
  out.length = 0;
  const lo = Math.max(2, Math.floor(MIN_HZ / binHz));
  const hi = Math.min(mags.length - 2, Math.ceil(MAX_HZ / binHz));
  for (let k = lo; k <= hi; k++) {
    const b = mags[k]!;
    if (b <= floor || b < mags[k - 1]! || b <= mags[k + 1]!) continue;
    const a = 20 * Math.log10(mags[k - 1]! + 1e-12);
    const bd = 20 * Math.log10(b);
    const c = 20 * Math.log10(mags[k + 1]! + 1e-12);
    const den = a - 2 * bd + c;
    const delta = den < 0 ? (0.5 * (a - c)) / den : 0;
    out.push({ hz: (k + delta) * binHz, mag: b });
  }
}

/** Summed per-frame pitch-class profiles of the whole window (C first), tuning-corrected. */
export function pitchProfile(signal: Float32Array): Float64Array {
  const binHz = SAMPLE_RATE / FRAME;
  const framesPeaks: Peak[][] = [];
  const scratch: Peak[] = [];
  forEachSpectrum(signal, FRAME, HOP, (_f, mags) => {
    let max = 0;
    for (let k = 0; k < mags.length; k++) if (mags[k]! > max) max = mags[k]!;
    if (max <= 1e-6) return;
    // 60 dB below the loudest bin: quieter peaks are window sidelobes or noise.
    spectralPeaks(mags, binHz, max * 1e-3, scratch);
    const loudest = [...scratch].sort((a, b) => b.mag - a.mag).slice(0, MAX_PEAKS);
    framesPeaks.push(loudest.map((p) => ({ hz: p.hz, mag: p.mag / max })));
  });
  // Deviation of the peaks from equal temperament at A = 440 Hz, as a circular mean in cents.
  let sx = 0;
  let sy = 0;
  for (const peaks of framesPeaks) {
    for (const p of peaks) {
      const semis = 12 * Math.log2(p.hz / 440);
      const phase = 2 * Math.PI * (semis - Math.round(semis));
      sx += p.mag * Math.cos(phase);
      sy += p.mag * Math.sin(phase);
    }
  }
  const offset = sx === 0 && sy === 0 ? 0 : Math.atan2(sy, sx) / (2 * Math.PI);
  const chroma = new Float64Array(12);
  for (const peaks of framesPeaks) {
    const frame = new Float64Array(12);
    for (const p of peaks) {
      for (let h = 1; h <= HARMONICS; h++) {
        const pitch = 69 + 12 * Math.log2(p.hz / h / 440) - offset;
        const nearest = Math.round(pitch);
        const d = pitch - nearest;
        // Cosine weighting over one semitone, as in HPCP: energy near a tempered pitch counts most.
        const w = Math.cos(Math.PI * d) ** 2 * 0.6 ** (h - 1);
        const pc = ((nearest % 12) + 12) % 12;
        frame[pc]! += w * p.mag;
      }
    }
    let fmax = 0;
    for (let k = 0; k < 12; k++) fmax = Math.max(fmax, frame[k]!);
    if (fmax > 0) for (let k = 0; k < 12; k++) chroma[k]! += frame[k]! / fmax >= PCP_THRESHOLD ? frame[k]! / fmax : 0;
  }
  return chroma;
}

interface KeyEstimate {
  key: number;
  mode: 0 | 1;
  strength: number;
  relative: number;
}

function estimateKey(essentia: Essentia, chroma: ArrayLike<number>, profile: string): KeyEstimate {
  // essentia's profiles, like its HPCP, start at A.
  const fromA = new Float32Array(12);
  for (let i = 0; i < 12; i++) fromA[i] = chroma[(i + 9) % 12]!;
  const vector = essentia.arrayToVector(fromA);
  try {
    const out = essentia.Key(vector, 4, 12, profile, 0.6, false, false, false) as {
      key: string;
      scale: string;
      strength: number;
      firstToSecondRelativeStrength: number;
    };
    return {
      key: NAMES[out.key] ?? 0,
      mode: out.scale === 'major' ? 1 : 0,
      strength: out.strength,
      relative: out.firstToSecondRelativeStrength,
    };
  } catch (error) {
    if (error instanceof Error) throw error;
    throw new Error(`essentia Key failed with native error ${String(error)}`);
  } finally {
    vector.delete();
  }
}

function extractKey(essentia: Essentia, signal: Float32Array): Omit<KeyEstimate, 'relative'> {
  const out = withVector(essentia, signal, (v) =>
    essentia.KeyExtractor(v, true, 4096, 4096, 12, 3500, 60, 25, 0.2, PROFILE, SAMPLE_RATE),
  ) as { key: string; scale: string; strength: number };
  return { key: NAMES[out.key] ?? 0, mode: out.scale === 'major' ? 1 : 0, strength: out.strength };
}

function normalizeMax(x: Float64Array): number[] {
  let max = 0;
  for (const v of x) max = Math.max(max, v);
  return Array.from(x, (v) => (max > 0 ? v / max : 0));
}

export function analyzeTonal(essentia: Essentia, signal: Float32Array, sampleRate: 44100): TonalResult {
  if (sampleRate !== SAMPLE_RATE) throw new Error(`analyzeTonal expects ${SAMPLE_RATE} Hz, got ${sampleRate}`);
  const chroma = pitchProfile(signal);
  const chromaOut = normalizeMax(chroma);
  if (chromaOut.every((v) => v === 0)) {
    return { key: 0, mode: 1, keyConfidence: 0, modeConfidence: 0, strength: 0, chroma: chromaOut };
  }
  const extracted = extractKey(essentia, signal);
  const second = estimateKey(essentia, chroma, PROFILE);
  const agrees = second.key === extracted.key && second.mode === extracted.mode;
  const sameMode = second.mode === extracted.mode;
  return {
    key: extracted.key,
    mode: extracted.mode,
    // Heuristic scales: the profile correlation, lowered when the second opinion names another
    // key; the mode is as sure as the two opinions agree and the runner-up key is far behind.
    keyConfidence: clamp01(extracted.strength * (agrees ? 1 : 0.6)),
    modeConfidence: sameMode ? clamp01(0.5 + 2 * Math.min(0.25, second.relative)) : 0.25,
    strength: extracted.strength,
    chroma: chromaOut,
  };
}
