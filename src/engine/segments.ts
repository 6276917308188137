import type { Segment } from '../core/types';
import { detrend } from './rhythm.onsets';
import { dctBasis, melFilterbank, melPowers } from './signal.mel';
import { BINS, type Spectrogram } from './signal.stft';
import type { Chroma } from './tonal.chroma';

// Local bindings: under Jest's vm sandbox a global lookup per bin is several times slower.
const { log10, max, round } = Math;

/**
 * Segments, as Spotify's audio-analysis had them: spans from one onset to the next, each with its
 * level contour, pitch content and timbre.
 *
 * - **bounds**: peaks of the onset envelope (all bands' flux, rhythm.onsets.ts, less its moving
 *   mean over ±0.25 s): a frame that is the largest within ±PEAK_RADIUS frames and stands
 *   ONSET_THRESHOLD times the envelope's mean above its mean over ±LOCAL_RADIUS frames, at
 *   least MIN_SEGMENT_SECONDS after the previous bound. The first segment starts at the window's
 *   start. A segment's confidence is how far its onset stands out: (peak - local mean) over
 *   (2 · the envelope's mean), capped at 1 (0 for the first segment when no onset starts it);
 * - **loudness**: the level of the 23 ms blocks (10·log10 of the mean power, full-scale sine
 *   -3 dB), floored at -60 dB: at the first block (loudness_start), the loudest block and its
 *   time from the segment's start (loudness_max, loudness_max_time), the last block (loudness_end);
 * - **pitches**: the engine's chroma (tonal.chroma.ts) summed over the segment's frames, divided by
 *   its strongest class (Spotify's normalisation: the strongest 1; all 0 in silence);
 * - **timbre**: 12 mel-frequency cepstral coefficients of the segment's mean power spectrum:
 *   MEL_BANDS triangular mel bands from 30 Hz to 11 kHz, each band's level L in dB above a -60 dB
 *   floor (0 at or below it), then a DCT-II: c₀ = mean(L) (the level, 0-60), c_k = (2/N)·Σ L_b
 *   cos(πk(b+½)/N) for k = 1…11 (c₁ > 0: dark, more energy low; < 0: bright; the higher ones the
 *   finer shape of the spectral envelope). Our own basis, not Spotify's (whose is not public):
 *   compare segments by it, not with Spotify's numbers.
 */

const MIN_SEGMENT_SECONDS = 0.1;
const PEAK_RADIUS = 3;
const LOCAL_RADIUS = 10;
const ONSET_THRESHOLD = 0.5;
const DETREND_RADIUS = 11;
const FLOOR_DB = -60;
const MEL_BANDS = 24;
const TIMBRE_COEFFICIENTS = 12;
const MEL_LO_HZ = 30;
const MEL_HI_HZ = 11000;

/** The timbre's mel bands and their DCT basis (signal.mel.ts). */
const MEL = melFilterbank(MEL_BANDS, MEL_LO_HZ, MEL_HI_HZ);
const COSINES = dctBasis(TIMBRE_COEFFICIENTS, MEL_BANDS);

const round3 = (x: number): number => round(x * 1000) / 1000;
const round2 = (x: number): number => round(x * 100) / 100;

/** Onset frames of the envelope, ascending, each with how far it stands out (0-1). */
export function segmentBounds(allFlux: Float64Array, fps: number): { frame: number; confidence: number }[] {
  const o = detrend(allFlux, DETREND_RADIUS);
  let mean = 0;
  for (const v of o) mean += v;
  mean /= max(1, o.length);
  const bounds: { frame: number; confidence: number }[] = [];
  if (!(mean > 0)) return bounds;
  const gap = round(MIN_SEGMENT_SECONDS * fps);
  for (let i = 1; i < o.length; i++) {
    const v = o[i]!;
    let isPeak = true;
    for (let j = max(0, i - PEAK_RADIUS); j <= Math.min(o.length - 1, i + PEAK_RADIUS) && isPeak; j++) {
      if (o[j]! > v || (o[j] === v && j < i)) isPeak = false;
    }
    if (!isPeak) continue;
    let local = 0;
    const from = max(0, i - LOCAL_RADIUS);
    const to = Math.min(o.length, i + LOCAL_RADIUS + 1);
    for (let j = from; j < to; j++) local += o[j]!;
    local /= to - from;
    if (v - local < ONSET_THRESHOLD * mean) continue;
    const last = bounds[bounds.length - 1];
    if (last && i - last.frame < gap) continue;
    bounds.push({ frame: i, confidence: Math.min(1, (v - local) / (2 * mean)) });
  }
  return bounds;
}

export interface SegmentInputs {
  spec: Spectrogram;
  chroma: Chroma;
  /** The onset envelope over every band (rhythm.onsets.ts `all`). */
  allFlux: Float64Array;
  fps: number;
  /** Seconds from the file's start to the window's. */
  offsetSeconds: number;
}

/** The window's segments, times from the start of the file. */
export function segmentsOf({ spec, chroma, allFlux, fps, offsetSeconds }: SegmentInputs): Segment[] {
  const frames = spec.frames;
  if (frames === 0) return [];
  const bounds = segmentBounds(allFlux, fps);
  const starts = bounds[0]?.frame === 0 ? bounds : [{ frame: 0, confidence: 0 }, ...bounds];
  const db = spec.blockPower.map((p) => max(FLOOR_DB, 10 * log10(p + 1e-12)));
  const bands = new Float64Array(MEL_BANDS);
  return starts.map((s, n) => {
    const from = s.frame;
    const to = Math.min(frames, starts[n + 1]?.frame ?? frames);
    let loudest = from;
    for (let f = from; f < to; f++) if (db[f]! > db[loudest]!) loudest = f;
    return {
      start: round3(offsetSeconds + from / fps),
      duration: round3((to - from) / fps),
      confidence: round3(s.confidence),
      loudnessStart: round2(db[from] ?? FLOOR_DB),
      loudnessMax: round2(db[loudest] ?? FLOOR_DB),
      loudnessMaxTime: round3((loudest - from) / fps),
      loudnessEnd: round2(db[max(from, to - 1)] ?? FLOOR_DB),
      pitches: pitchesOf(chroma, from, to),
      timbre: timbreOf(spec, from, to, bands),
    };
  });
}

/** The chroma of frames [from, to), its strongest class 1. */
function pitchesOf(chroma: Chroma, from: number, to: number): number[] {
  const sum = new Float64Array(12);
  for (let f = from; f < Math.min(to, chroma.count); f++) for (let c = 0; c < 12; c++) sum[c]! += chroma.frames[f * 12 + c]!;
  const top = Math.max(...sum);
  return Array.from(sum, (v) => (top > 0 ? round3(v / top) : 0));
}

/** The cepstral coefficients of the mean mel power of frames [from, to). */
function timbreOf(spec: Spectrogram, from: number, to: number, bands: Float64Array): number[] {
  const { firstBin, lastBin } = MEL;
  const mags = spec.mags;
  // Power per bin summed over the frames first: the filterbank then runs once per segment, not per frame.
  const power = new Float64Array(BINS);
  for (let f = from; f < to; f++) {
    const row = f * BINS;
    for (let k = firstBin; k <= lastBin; k++) {
      const m = mags[row + k]!;
      power[k]! += m * m;
    }
  }
  melPowers(MEL, power, bands);
  const frames = max(1, to - from);
  for (let b = 0; b < MEL_BANDS; b++) bands[b] = max(0, 10 * log10(bands[b]! / frames + 1e-12) - FLOOR_DB);
  return COSINES.map((basis, c) => {
    let s = 0;
    for (let b = 0; b < MEL_BANDS; b++) s += bands[b]! * basis[b]!;
    return round2(c === 0 ? s / MEL_BANDS : (2 * s) / MEL_BANDS);
  });
}
