import { BINS as FRAME_BINS, BIN_HZ, type Spectrogram } from './signal.stft';

/** Bound in this module, for the per-bin loops below (see BINS in signal.stft.ts). */
const BINS = FRAME_BINS;

const { log, log2, sqrt } = Math;

/**
 * A sung voice, measured in the spectrogram: the strongest partial of the voice's band
 * (300–3400 Hz, where a voice's harmonics and formants carry it in a mix) followed from frame to
 * frame, and how its pitch moves while it lasts. A voice never holds a pitch still: vibrato
 * (5–7 Hz, ±20–100 cents) and the drift of every sung note leave tens of cents of wobble around
 * the note's line; a synthesizer, an organ, a piano or a guitar holds its partials within a few
 * cents. The measure is the share of the window's audible frames that lie in such wobbling
 * partials (docs/FEATURES.md, "instrumentalness").
 */
export interface VoiceStats {
  /** Share of audible frames in a held partial of 300–3400 Hz whose pitch wobbles like a voice's (0–1). */
  vocalFrames: number;
  /** Share of audible frames in any held partial of that band (0–1): how melodic the band is. */
  heldFrames: number;
}

const LO = Math.ceil(300 / BIN_HZ);
const HI = Math.floor(3400 / BIN_HZ);
/** A partial continues into the next frame when its pitch moved less than this, cents. */
const CONTINUE_CENTS = 70;
/** Frames a partial must last to be judged (~230 ms: a note, not a transient). */
const MIN_RUN = 10;
/** Residual wobble (RMS cents around the partial's straight line) from steady (below) to sung (above). */
const STEADY_CENTS = 6;
const SUNG_CENTS = 18;
/** Frames quieter than the loud ones by more than this are not counted, dB. */
const AUDIBLE_DB = 30;
/** The strongest peak must stand this far over the band's mean power to be a partial (ratio). */
const PROMINENCE = 8;

/** Pitch in cents (re 1 Hz) of the strongest prominent peak of the band in frame f, or NaN. */
function peakCents(mags: Float32Array, f: number): number {
  const row = f * BINS;
  let best = -1;
  let bestP = 0;
  let sum = 0;
  for (let k = LO; k <= HI; k++) {
    const p = mags[row + k]! * mags[row + k]!;
    sum += p;
    if (p > bestP && mags[row + k]! >= mags[row + k - 1]! && mags[row + k]! >= mags[row + k + 1]!) {
      bestP = p;
      best = k;
    }
  }
  if (best < 0 || bestP < (PROMINENCE * sum) / (HI - LO + 1)) return NaN;
  // Parabolic interpolation of the log magnitude around the peak.
  const a = log(mags[row + best - 1]! + 1e-12);
  const b = log(mags[row + best]! + 1e-12);
  const c = log(mags[row + best + 1]! + 1e-12);
  const den = a - 2 * b + c;
  const offset = den < 0 ? (0.5 * (a - c)) / den : 0;
  return 1200 * log2((best + offset) * BIN_HZ);
}

/** RMS of the residual of a least-squares line through ys. */
function detrendedRms(ys: readonly number[]): number {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (i - mx) * (ys[i]! - my);
    sxx += (i - mx) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (ys[i]! - my - slope * (i - mx)) ** 2;
  return sqrt(ss / n);
}

export function measureVoice(spec: Spectrogram): VoiceStats {
  const frames = spec.frames;
  const db = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let s = 0;
    for (let k = LO; k <= HI; k++) s += spec.mags[f * BINS + k]! ** 2;
    db[f] = 10 * Math.log10(s + 1e-12);
  }
  const loud = Float64Array.from(db).sort()[Math.floor(0.9 * Math.max(0, frames - 1))] ?? 0;
  let audible = 0;
  let held = 0;
  let vocal = 0;
  let run: number[] = [];
  const close = (): void => {
    if (run.length >= MIN_RUN) {
      held += run.length;
      const wobble = detrendedRms(run);
      const sung = Math.min(1, Math.max(0, (wobble - STEADY_CENTS) / (SUNG_CENTS - STEADY_CENTS)));
      vocal += sung * run.length;
    }
    run = [];
  };
  for (let f = 0; f < frames; f++) {
    if (db[f]! < loud - AUDIBLE_DB) {
      close();
      continue;
    }
    audible++;
    const cents = peakCents(spec.mags, f);
    if (!Number.isFinite(cents)) {
      close();
      continue;
    }
    if (run.length > 0 && Math.abs(cents - run[run.length - 1]!) > CONTINUE_CENTS) close();
    run.push(cents);
  }
  close();
  return audible > 0 ? { vocalFrames: vocal / audible, heldFrames: held / audible } : { vocalFrames: 0, heldFrames: 0 };
}
