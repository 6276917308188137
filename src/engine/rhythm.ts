import type { Essentia } from 'essentia.js';
import { SpectrumFrames, clamp01, mean, spectrumFrames } from './signal';

/**
 * Tempo, beats, bars and time signature, measured in JS from one short-time spectrum pass.
 *
 * Why not essentia's trackers: RhythmExtractor2013 `multifeature` costs ~2.1 s per 30 s clip and
 * `degara` ~0.35 s, and both still pick the wrong metrical level on a quarter of rendered songs
 * (halved above ~155 BPM, doubled below ~80). The expensive part of fixing that is the evidence
 * about metrical levels, which needs the onset envelope anyway; with it, tempo by
 * autocorrelation and beats by dynamic programming (Ellis 2007) cost a few milliseconds more.
 */
export interface RhythmResult {
  tempo: number;
  tempoConfidence: number;
  beats: number[];
  beatConfidences: number[];
  downbeats: number[];
  timeSignature: number;
  timeSignatureConfidence: number;
  onsetRate: number;
  beatStrength: number;
  /**
   * How clearly the onsets repeat at a steady pulse: the largest normalised autocorrelation of the
   * onset envelope among the candidate levels, 0-1 (speech ~0.2, music with drums 0.45-0.9,
   * drumless music 0.3-0.9 on the rendered sets; BENCHMARKS.md).
   */
  pulseClarity: number;
}

const SAMPLE_RATE = 44100;
const FRAME = 2048;
const HOP = 512;
const FPS = SAMPLE_RATE / HOP;
const MIN_BPM = 50;
const MAX_BPM = 230;
/** Normalised autocorrelation below which a candidate period is not a pulse of the signal. */
const MIN_PULSE_ACF = 0.1;
/** How far (share of the lag) a refined multiple of the base period may move; see refinePeak. */
const MULTIPLE_TOLERANCE = 0.03;
/** How many of the strongest autocorrelation peaks join the candidates besides the base's multiples. */
const EXTRA_PEAKS = 3;
/** ...and only when they repeat at least half as strongly as the base period does. */
const EXTRA_PEAK_SHARE = 0.5;
/**
 * Half-width (seconds) of the two windows whose pitch-class content is compared to find chord
 * changes. 0.4 s and 1.0 s chose the same levels within two songs of 528 (BENCHMARKS.md).
 */
const CHANGE_HALF_WINDOW = 0.7;
/** Radius (seconds) of the moving mean removed from the chord-change curve: its slow drift is not a change. */
const CHANGE_HIGH_PASS = 1.0;
/** Slowest level whose bar (four of its periods) the chord-change autocorrelation covers. */
const MIN_BAR_BPM = MIN_BPM * 0.96;

/** Frame-rate envelopes of one analysis window. */
export interface OnsetEnvelopes {
  fps: number;
  /** Log-magnitude spectral flux, the onset strength used for tempo and beats. */
  flux: Float64Array;
  /** The same flux restricted to < 200 Hz: kick drums and bass notes, the usual bar accents. */
  low: Float64Array;
  /** 12 pitch-class energies per frame (C first), for harmonic change at bar lines. */
  chroma: Float64Array;
}

/** Pitch class (C = 0) of every bin below `maxBin` within 110 Hz–3 kHz, -1 elsewhere; built once. */
const BIN_HZ = SAMPLE_RATE / FRAME;
const MAX_BIN = Math.min(FRAME / 2, Math.round(11000 / BIN_HZ));
const LOW_BIN = Math.round(200 / BIN_HZ);
const BIN_PC = (() => {
  const chromaLo = Math.round(110 / BIN_HZ);
  const chromaHi = Math.round(3000 / BIN_HZ);
  const binPc = new Int8Array(MAX_BIN);
  for (let k = 0; k < MAX_BIN; k++) {
    const midi = 69 + 12 * Math.log2(Math.max(k, 1) * BIN_HZ / 440);
    binPc[k] = k >= chromaLo && k <= chromaHi ? ((Math.round(midi) % 12) + 12) % 12 : -1;
  }
  return binPc;
})();

/**
 * One frame of the onset envelopes: writes the log-compressed magnitudes into `cur`, adds the
 * frame's chroma, and stores the positive flux against `prev` (all bins and < 200 Hz).
 * A function of its own, called per frame, so that it stays optimised from clip to clip.
 */
function onsetFrame(f: number, mags: Float64Array, prev: Float64Array, cur: Float64Array, env: OnsetEnvelopes): void {
  const chroma = env.chroma;
  let s = 0;
  let l = 0;
  for (let k = 1; k < MAX_BIN; k++) {
    const m = mags[k]!;
    const c = Math.log1p(1000 * m);
    cur[k] = c;
    const pc = BIN_PC[k]!;
    if (pc >= 0) chroma[f * 12 + pc]! += m * m;
    const d = c - prev[k]!;
    if (d > 0 && f > 0) {
      s += d;
      if (k <= LOW_BIN) l += d;
    }
  }
  env.flux[f] = s;
  env.low[f] = l;
}

export function onsetEnvelopes(signal: Float32Array): OnsetEnvelopes {
  const spectra = spectrumFrames(FRAME);
  const frames = SpectrumFrames.count(signal.length, HOP);
  const env: OnsetEnvelopes = {
    fps: FPS,
    flux: new Float64Array(frames),
    low: new Float64Array(frames),
    chroma: new Float64Array(frames * 12),
  };
  let prev = new Float64Array(MAX_BIN);
  let cur = new Float64Array(MAX_BIN);
  for (let f = 0; f < frames; f++) {
    onsetFrame(f, spectra.at(signal, f * HOP), prev, cur, env);
    const t = prev;
    prev = cur;
    cur = t;
  }
  return env;
}

/** Removes the slowly varying part (loudness changes) so only onsets remain, half-wave rectified. */
function highPass(x: Float64Array, radius: number): Float64Array {
  const prefix = new Float64Array(x.length + 1);
  for (let i = 0; i < x.length; i++) prefix[i + 1] = prefix[i]! + x[i]!;
  const y = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const a = Math.max(0, i - radius);
    const b = Math.min(x.length, i + radius + 1);
    y[i] = Math.max(0, x[i]! - (prefix[b]! - prefix[a]!) / (b - a));
  }
  return y;
}

/**
 * Chord changes over time: the cosine distance between the pitch-class magnitudes of the
 * `CHANGE_HALF_WINDOW` before and after each frame. Peaks where the harmony moves (usually at
 * bar lines); nearly flat under repeated stabs, hi-hats and drums, which leave the pitch classes
 * as they were.
 */
function harmonicChange(env: OnsetEnvelopes): Float64Array {
  const frames = env.flux.length;
  const w = Math.max(2, Math.round(CHANGE_HALF_WINDOW * env.fps));
  const prefix = new Float64Array((frames + 1) * 12);
  for (let t = 0; t < frames; t++) {
    for (let k = 0; k < 12; k++) prefix[(t + 1) * 12 + k] = prefix[t * 12 + k]! + Math.sqrt(env.chroma[t * 12 + k]!);
  }
  const change = new Float64Array(frames);
  for (let t = w; t + w <= frames; t++) {
    let dot = 0;
    let before2 = 0;
    let after2 = 0;
    for (let k = 0; k < 12; k++) {
      const before = prefix[t * 12 + k]! - prefix[(t - w) * 12 + k]!;
      const after = prefix[(t + w) * 12 + k]! - prefix[t * 12 + k]!;
      dot += before * after;
      before2 += before * before;
      after2 += after * after;
    }
    change[t] = before2 > 0 && after2 > 0 ? 1 - dot / Math.sqrt(before2 * after2) : 0;
  }
  return change;
}

/** Sum of x[i] * x[i + lag]. */
function lagProduct(x: Float64Array, lag: number): number {
  let s = 0;
  for (let i = 0; i + lag < x.length; i++) s += x[i]! * x[i + lag]!;
  return s;
}

function autocorrelation(x: Float64Array, maxLag: number): Float64Array {
  const r = new Float64Array(maxLag + 1);
  for (let lag = 0; lag <= maxLag; lag++) r[lag] = lagProduct(x, lag) / Math.max(1, x.length - lag);
  const r0 = r[0]! || 1;
  for (let lag = 0; lag <= maxLag; lag++) r[lag] = r[lag]! / r0;
  return r;
}

function sampleAt(x: Float64Array, t: number): number {
  const i = Math.floor(t);
  const f = t - i;
  return (x[i] ?? 0) * (1 - f) + (x[i + 1] ?? 0) * f;
}

/** Mean onset strength on the grid `phase + k * period` (peak within one frame either side). */
function gridStrength(o: Float64Array, period: number, phase: number): number {
  let s = 0;
  let n = 0;
  for (let t = phase; t < o.length; t += period) {
    const i = Math.round(t);
    s += Math.max(o[i] ?? 0, o[i - 1] ?? 0, o[i + 1] ?? 0);
    n++;
  }
  return n ? s / n : 0;
}

interface Pulse {
  period: number;
  phase: number;
  /** Mean onset strength on the pulse. */
  on: number;
  /** Mean strength halfway between pulses, and at the thirds, relative to `on`. */
  half: number;
  third: number;
}

function pulse(o: Float64Array, period: number): Pulse {
  let on = -1;
  let phase = 0;
  for (let p = 0; p < period; p += 1) {
    const v = gridStrength(o, period, p);
    if (v > on) {
      on = v;
      phase = p;
    }
  }
  const safe = on > 0 ? on : 1;
  const half = gridStrength(o, period, phase + period / 2) / safe;
  const third = (gridStrength(o, period, phase + period / 3) + gridStrength(o, period, phase + (2 * period) / 3)) / (2 * safe);
  return { period, phase, on: Math.max(0, on), half, third };
}

/**
 * The autocorrelation peak nearest `lag` within ±4 %, refined by parabolic interpolation; `lag`
 * itself when the largest value lies more than 3 % away (a multiple of the base period whose own
 * repetition is smeared, as under a walking bass without drums, stays that exact multiple rather
 * than moving 5 % to a neighbouring peak: 156.5 BPM was read as 148.8).
 */
export function refinePeak(r: Float64Array, lag: number): number {
  const lo = Math.max(1, Math.floor(lag * 0.96));
  const hi = Math.min(r.length - 2, Math.ceil(lag * 1.04));
  let best = Math.round(lag);
  let bestV = -Infinity;
  for (let l = lo; l <= hi; l++) {
    if (r[l]! > bestV) {
      bestV = r[l]!;
      best = l;
    }
  }
  // The largest value more than 3 % away is the slope of another peak or one at the window's
  // edge: the signal does not repeat near this lag, so the lag asked for stands.
  if (Math.abs(best - lag) > MULTIPLE_TOLERANCE * lag) return lag;
  if (best <= 0 || best >= r.length - 1) return best;
  const a = r[best - 1]!;
  const b = r[best]!;
  const c = r[best + 1]!;
  const den = a - 2 * b + c;
  return den < 0 ? best + (0.5 * (a - c)) / den : best;
}

/** The envelopes the level choice reads, at one frame rate. */
export interface LevelEnvelopes {
  fps: number;
  /** High-passed onset strength (all bands). */
  onset: Float64Array;
  /** High-passed onset strength below 200 Hz. */
  low: Float64Array;
  /** High-passed chord-change curve (`harmonicChange`). */
  change: Float64Array;
}

/** Evidence about one candidate metrical level (features for the level choice). */
export interface TempoCandidate {
  bpm: number;
  period: number;
  /** Normalised autocorrelation of the onset envelope at `period`: how strongly the onsets repeat there. */
  repeat: number;
  features: number[];
}

/**
 * Candidate tapping levels: the strongest periodicity of the onset envelope, its multiples and
 * fractions by 2, 3 and 4, and the strongest other autocorrelation peaks with their doubles and
 * halves, each refined to its own peak, with features describing how strong that level is
 * against the levels around it.
 */
export function tempoCandidates(levels: LevelEnvelopes): TempoCandidate[] {
  const { onset: o, low, change, fps } = levels;
  const maxLag = Math.min(o.length - 2, Math.ceil((fps * 60) / 25));
  const r = autocorrelation(o, maxLag);
  const rChange = autocorrelation(change, Math.min(change.length - 2, Math.ceil((4 * fps * 60) / MIN_BAR_BPM) + 1));
  const minLag = Math.floor((fps * 60) / 240);
  const maxBaseLag = Math.min(maxLag, Math.ceil((fps * 60) / 40));
  // The strongest periodicity, counting its multiples so that a bar-level peak also supports its beats.
  let base = 0;
  let baseScore = -Infinity;
  for (let lag = minLag; lag <= maxBaseLag; lag++) {
    if (!(r[lag]! >= r[lag - 1]! && r[lag]! >= (r[lag + 1] ?? 0))) continue;
    let s = 0;
    for (let k = 1; k <= 4; k++) s += k * lag <= maxLag ? sampleAt(r, k * lag) / k : 0;
    if (s > baseScore) {
      baseScore = s;
      base = lag;
    }
  }
  if (base === 0) return [];
  base = refinePeak(r, base);
  const meanO = mean(o) || 1;
  const seen: number[] = [];
  const out: TempoCandidate[] = [];
  // The strongest other periodicities too: the ladder misses levels related to the base by 3:2.
  const peaks: number[] = [];
  for (let lag = Math.floor((fps * 60) / MAX_BPM); lag <= Math.min(maxLag - 1, Math.ceil((fps * 60) / MIN_BPM)); lag++) {
    if (r[lag]! > r[lag - 1]! && r[lag]! >= r[lag + 1]!) peaks.push(lag);
  }
  peaks.sort((a, b) => r[b]! - r[a]!);
  // `floor`: the autocorrelation a level must reach at its own period to be a pulse at all.
  const guesses = [4, 3, 2, 1, 1 / 2, 1 / 3, 1 / 4].map((ratio) => ({ guess: base * ratio, floor: ratio >= 1 ? -Infinity : MIN_PULSE_ACF }));
  for (const lag of peaks.slice(0, EXTRA_PEAKS)) {
    if (r[lag]! < EXTRA_PEAK_SHARE * sampleAt(r, base)) continue;
    guesses.push({ guess: lag, floor: MIN_PULSE_ACF });
    // With its own double and half, where the envelope repeats at least half as strongly as at the
    // peak: when the base is a dotted beat (3:2 from the beat, which its ladder never reaches), a
    // backbeat every two beats is one of these peaks and its half is the beat (a drum machine's
    // clave figure at 125 BPM was read at 83.3, a reggaeton song at 180 at 120).
    const floor = Math.max(MIN_PULSE_ACF, EXTRA_PEAK_SHARE * r[lag]!);
    for (const ratio of [2, 1 / 2]) guesses.push({ guess: lag * ratio, floor });
  }
  for (const { guess, floor } of guesses) {
    const bpm0 = (fps * 60) / guess;
    if (bpm0 < MIN_BPM * 0.96 || bpm0 > MAX_BPM * 1.04) continue;
    const period = guess * 2 <= maxLag ? refinePeak(r, guess) : guess;
    if (seen.some((p) => Math.abs(p - period) / period < 0.03)) continue;
    const repeat = sampleAt(r, period);
    // A level the envelope does not repeat at is no pulse at all (the base and its multiples stay).
    if (repeat < floor) continue;
    seen.push(period);
    const bpm = (fps * 60) / period;
    const self = pulse(o, period);
    const duple = sampleAt(r, period * 2) >= sampleAt(r, period * 3);
    // Measured against whichever slower level the envelope actually repeats at: the other one
    // drifts across the bar and averages everything, telling nothing.
    const slower = duple ? pulse(o, period * 2).half : pulse(o, period * 3).third;
    const f = [
      Math.log2(bpm / 120),
      Math.log2(bpm / 120) ** 2,
      Math.log(Math.max(self.half, self.third) + 0.05),
      Math.log(slower + 0.05),
      Math.log((self.on + 1e-9) / meanO),
      repeat,
    ];
    const lowSelf = pulse(low, period);
    const lowSlow = duple ? pulse(low, period * 2).half : pulse(low, period * 3).third;
    f.push(Math.log(Math.max(lowSelf.half, lowSelf.third) + 0.05), Math.log(lowSlow + 0.05));
    // Harmonic rhythm: chords that change every three or four periods make this level the beat
    // of a bar (its double would change chords every six or eight beats, its half every 1.5 or 2).
    f.push(Math.max(sampleAt(rChange, 3 * period), sampleAt(rChange, 4 * period)));
    out.push({ bpm, period, repeat, features: f });
  }
  return out;
}

/**
 * Weights of the level choice, in the order of the features of `tempoCandidates`:
 * log2(bpm / 120) and its square (a soft preference for moderate tempi, not a range rule),
 * log of the subdivision strength (a level whose halves or thirds carry onsets is a beat,
 * one with empty subdivisions is a tatum), log of the strength of this pulse between the beats
 * of the next slower level (strong: the slower level is a bar or half bar, not the beat),
 * log of the pulse strength over the mean onset strength, the autocorrelation at the period,
 * the two subdivision strengths again on the < 200 Hz envelope (kick, snare body, bass: the
 * accents a listener taps, which hi-hats in sixteenths do not carry), and the harmonic rhythm
 * (chords changing every three or four periods).
 * Fitted by `npm run bench:tempo-levels` (softmax regression, L2 0.001) over the candidate levels
 * of 576 rendered songs in 12 sets: eight soundfonts, mp3/ogg/flac, 70-180 BPM, 3/4 and 4/4, 78
 * songs without drums, 48 with sixteenth-note hi-hats; see BENCHMARKS.md.
 */
export const LEVEL_WEIGHTS: readonly number[] = [3.3, -3.35, 2.25, 0.92, 0.66, 1.68, -1.28, 0.75, 5.46];

/** Each candidate's score under `weights` (a softmax over the scores gives the level's probability). */
export function levelScores(cands: readonly TempoCandidate[], weights: readonly number[] = LEVEL_WEIGHTS): number[] {
  return cands.map((c) => c.features.reduce((s, v, i) => s + v * (weights[i] ?? 0), 0));
}

function chooseLevel(cands: TempoCandidate[]): { best: TempoCandidate; confidence: number } | undefined {
  if (cands.length === 0) return undefined;
  const scores = levelScores(cands);
  let bi = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[bi]!) bi = i;
  const max = scores[bi]!;
  const z = scores.reduce((s, v) => s + Math.exp(v - max), 0);
  return { best: cands[bi]!, confidence: 1 / z };
}

/** Score of reaching frame `t` from a beat at `p`: its score less the penalty for a period off `period`. */
function transitionScore(score: Float64Array, t: number, p: number, period: number, tightness: number): number {
  const d = Math.log((t - p) / period);
  return score[p]! - tightness * d * d;
}

/** The first frame in [t - hi, t - lo] (>= 0) with the best transition score to `t`; -1 if none. */
function bestPredecessor(score: Float64Array, t: number, lo: number, hi: number, period: number, tightness: number): number {
  let best = 0;
  let bestP = -1;
  for (let p = Math.max(0, t - hi); p <= t - lo; p++) {
    const v = transitionScore(score, t, p, period, tightness);
    if (bestP < 0 || v > best) {
      best = v;
      bestP = p;
    }
  }
  return bestP;
}

/** Beat positions (frames) for a known period by dynamic programming (Ellis 2007). */
function trackBeats(o: Float64Array, period: number): number[] {
  const n = o.length;
  const tightness = 100;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += o[i]! * o[i]!;
  const norm = Math.sqrt(n > 0 ? squares / n : 0) || 1;
  const score = new Float64Array(n);
  const back = new Int32Array(n).fill(-1);
  const lo = Math.round(period / 2);
  const hi = Math.round(period * 2);
  for (let t = 0; t < n; t++) {
    const bestP = bestPredecessor(score, t, lo, hi, period, tightness);
    const best = bestP >= 0 ? transitionScore(score, t, bestP, period, tightness) : 0;
    const local = o[t]! / norm;
    if (bestP >= 0 && best > 0) {
      score[t] = local + best;
      back[t] = bestP;
    } else {
      score[t] = local;
    }
  }
  // End on the best-scoring frame within the last period.
  let end = n - 1;
  for (let t = Math.max(0, n - Math.round(period)); t < n; t++) if (score[t]! > score[end]!) end = t;
  const beats: number[] = [];
  for (let t = end; t >= 0; t = back[t]!) beats.push(t);
  return beats.reverse();
}

function localPeak(o: Float64Array, t: number, radius: number): number {
  let m = 0;
  for (let i = Math.max(0, t - radius); i <= Math.min(o.length - 1, t + radius); i++) m = Math.max(m, o[i]!);
  return m;
}

function countOnsets(o: Float64Array, fps: number): number {
  const sorted = Float64Array.from(o).sort();
  const threshold = Math.max(1e-9, (sorted[Math.floor(sorted.length * 0.5)] ?? 0) * 1.5, (sorted[Math.floor(sorted.length * 0.98)] ?? 0) * 0.1);
  const minGap = Math.round(fps * 0.05);
  let count = 0;
  let last = -minGap;
  for (let i = 1; i < o.length - 1; i++) {
    if (o[i]! > threshold && o[i]! >= o[i - 1]! && o[i]! > o[i + 1]! && i - last >= minGap) {
      count++;
      last = i;
    }
  }
  return count;
}

interface Meter {
  beatsPerBar: number;
  phase: number;
  confidence: number;
}

/**
 * Bar length and phase from beat-synchronous evidence: bass/kick onsets and chord changes
 * cluster on the first beat of the bar, so their pattern repeats every 3 or every 4 beats.
 */
function measureMeter(env: OnsetEnvelopes, beats: number[]): Meter {
  const nb = beats.length;
  if (nb < 8) return { beatsPerBar: 4, phase: 0, confidence: 0 };
  const lowAcc = new Float64Array(nb);
  const change = new Float64Array(nb);
  const frames = env.flux.length;
  let prevChroma: Float64Array | undefined;
  for (let i = 0; i < nb; i++) {
    const start = beats[i]!;
    const end = i + 1 < nb ? beats[i + 1]! : Math.min(frames, start + (start - (beats[i - 1] ?? 0)));
    lowAcc[i] = localPeak(env.low, start, 2);
    const c = new Float64Array(12);
    for (let f = start; f < end; f++) for (let k = 0; k < 12; k++) c[k]! += env.chroma[f * 12 + k]!;
    let norm = 0;
    for (let k = 0; k < 12; k++) norm += c[k]! * c[k]!;
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < 12; k++) c[k] = c[k]! / norm;
    if (prevChroma) {
      let dot = 0;
      for (let k = 0; k < 12; k++) dot += c[k]! * prevChroma[k]!;
      change[i] = 1 - dot;
    }
    prevChroma = c;
  }
  const z = (x: Float64Array) => {
    const m = mean(x);
    const sd = Math.sqrt(mean(Array.from(x, (v) => (v - m) ** 2))) || 1;
    return Array.from(x, (v) => (v - m) / sd);
  };
  const changeZ = z(change);
  const accent = z(lowAcc).map((v, i) => v + changeZ[i]!);
  let best: { m: number; p: number; s: number } = { m: 4, p: 0, s: -Infinity };
  const byMeter = new Map<number, number>();
  for (const m of [3, 4]) {
    let mBest = -Infinity;
    for (let p = 0; p < m; p++) {
      let on = 0;
      let nOn = 0;
      let off = 0;
      let nOff = 0;
      for (let i = 0; i < nb; i++) {
        if ((i - p) % m === 0) {
          on += accent[i]!;
          nOn++;
        } else {
          off += accent[i]!;
          nOff++;
        }
      }
      const s = on / Math.max(1, nOn) - off / Math.max(1, nOff);
      if (s > mBest) mBest = s;
      if (s > best.s) best = { m, p, s };
    }
    byMeter.set(m, mBest);
  }
  const s3 = byMeter.get(3) ?? 0;
  const s4 = byMeter.get(4) ?? 0;
  const confidence = clamp01(Math.abs(s4 - s3) / (Math.abs(s4) + Math.abs(s3) + 1e-9));
  return { beatsPerBar: best.m, phase: best.p, confidence };
}

/** The envelopes of a 44.1 kHz signal and its candidate tapping levels (also read by bench/tempo-levels.ts). */
export function tempoEvidence(signal: Float32Array): { env: OnsetEnvelopes; levels: LevelEnvelopes; candidates: TempoCandidate[] } {
  const env = onsetEnvelopes(signal);
  const fps = env.fps;
  const levels: LevelEnvelopes = {
    fps,
    onset: highPass(env.flux, Math.round(fps * 0.2)),
    low: highPass(env.low, Math.round(fps * 0.2)),
    change: highPass(harmonicChange(env), Math.round(fps * CHANGE_HIGH_PASS)),
  };
  return { env, levels, candidates: tempoCandidates(levels) };
}

export function analyzeRhythm(_essentia: Essentia, signal: Float32Array, sampleRate: 44100): RhythmResult {
  if (sampleRate !== SAMPLE_RATE) throw new Error(`analyzeRhythm expects ${SAMPLE_RATE} Hz, got ${sampleRate}`);
  const { env, levels, candidates } = tempoEvidence(signal);
  const fps = env.fps;
  const o = levels.onset;
  const seconds = signal.length / SAMPLE_RATE;
  const onsetRate = seconds > 0 ? countOnsets(o, fps) / seconds : 0;
  const choice = chooseLevel(candidates);
  if (!choice) {
    return {
      tempo: 0, tempoConfidence: 0, beats: [], beatConfidences: [], downbeats: [],
      timeSignature: 4, timeSignatureConfidence: 0, onsetRate, beatStrength: 0, pulseClarity: 0,
    };
  }
  const beatFrames = trackBeats(o, choice.best.period);
  const peaks = beatFrames.map((t) => localPeak(o, t, 2));
  const sorted = [...peaks].sort((a, b) => a - b);
  const ref = sorted[Math.floor(sorted.length * 0.9)] || 1;
  const beatConfidences = peaks.map((p) => clamp01(p / ref));
  const beats = beatFrames.map((t) => t / fps);
  const meter = measureMeter(env, beatFrames);
  const downbeats = beats.filter((_, i) => i >= meter.phase && (i - meter.phase) % meter.beatsPerBar === 0);
  const flat = Float64Array.from(o).sort();
  const typical = flat[Math.floor(flat.length * 0.95)] || 1;
  return {
    tempo: Math.round(choice.best.bpm * 10) / 10,
    tempoConfidence: clamp01(choice.confidence),
    beats,
    beatConfidences,
    downbeats,
    timeSignature: meter.beatsPerBar,
    timeSignatureConfidence: meter.confidence,
    onsetRate,
    beatStrength: clamp01(mean(peaks) / typical),
    pulseClarity: clamp01(Math.max(...candidates.map((c) => c.repeat))),
  };
}
