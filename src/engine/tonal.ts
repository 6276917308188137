import type { Essentia } from 'essentia.js';
import { pitchClassOf } from '../core/music';
import { withVector } from './essentia';
import { clamp01, decimateByMean, forEachSpectrum } from './signal';

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
/**
 * The key reads 25-3500 Hz, so it works at half the rate (pairs of samples averaged) with
 * 2048-point frames: 10.8 Hz bins and a 93 ms hop, as 4096-point frames at 44.1 kHz, for half
 * the spectrum work.
 */
const KEY_RATE = SAMPLE_RATE / 2;
const FRAME = 2048;
const HOP = 2048;
const MIN_HZ = 25;
const MAX_HZ = 3500;
const MAX_PEAKS = 60;
/** Each peak also counts for the pitch classes of its possible fundamentals f/2..f/4, as HPCP does. */
const HARMONICS = 4;
/** Per-frame pitch classes below this share of the frame's strongest are noise (KeyExtractor's pcpThreshold). */
const PCP_THRESHOLD = 0.2;
/** Measured on 120 rendered songs: shaath best for both KeyExtractor and the JS chroma (see BENCHMARKS.md). */
const PROFILE = 'shaath';
/**
 * A peak at 3, 5 or 6 times the frequency of a louder peak of the same frame (within 0.3
 * semitone) counts this share of its level: it is mostly that note's overtone, and would add a
 * fifth or a major third that is not played (square and FM leads, reeds, brass).
 */
const OVERTONE_WEIGHT = 0.3;
const OVERTONE_TOLERANCE_SEMITONES = 0.3;
/** See modeByThird. */
const THIRD_WEAK = 0.5;
const THIRD_RATIO = 1.5;
const THIRD_MARGIN = 0.02;

/**
 * The peaks of one spectrum, in reused flat arrays (a clip has ~300 frames of up to a few
 * hundred peaks each: objects per peak were most of this stage's garbage).
 */
class PeakList {
  hz = new Float64Array(512);
  mag = new Float64Array(512);
  count = 0;

  push(hz: number, mag: number): void {
    if (this.count === this.hz.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.hz = grow(this.hz);
      this.mag = grow(this.mag);
    }
    this.hz[this.count] = hz;
    this.mag[this.count] = mag;
    this.count++;
  }
}

/** Local maxima of one magnitude spectrum, frequency refined by parabolic interpolation on dB. */
function spectralPeaks(mags: Float64Array, binHz: number, floor: number, out: PeakList): void {
  out.count = 0;
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
    out.push((k + delta) * binHz, b);
  }
}

/**
 * The loudest MAX_PEAKS peaks of every frame, loudest first (ties in frequency order), with
 * magnitudes relative to the frame's loudest bin: frame f's peaks are [start[f], start[f+1]).
 */
interface FramePeaks {
  hz: Float64Array;
  mag: Float64Array;
  start: Int32Array;
  frames: number;
}

function loudestPeaks(signal: Float32Array): FramePeaks {
  const binHz = KEY_RATE / FRAME;
  const maxFrames = Math.max(1, Math.ceil(signal.length / HOP));
  const hz = new Float64Array(maxFrames * MAX_PEAKS);
  const mag = new Float64Array(maxFrames * MAX_PEAKS);
  const start = new Int32Array(maxFrames + 1);
  const scratch = new PeakList();
  let order = new Int32Array(512);
  let frames = 0;
  let n = 0;
  forEachSpectrum(signal, FRAME, HOP, (_f, mags) => {
    let max = 0;
    for (let k = 0; k < mags.length; k++) if (mags[k]! > max) max = mags[k]!;
    if (max <= 1e-6) return;
    // 60 dB below the loudest bin: quieter peaks are window sidelobes or noise.
    spectralPeaks(mags, binHz, max * 1e-3, scratch);
    if (order.length < scratch.count) order = new Int32Array(scratch.count * 2);
    const idx = order.subarray(0, scratch.count);
    for (let i = 0; i < idx.length; i++) idx[i] = i;
    const m = scratch.mag;
    // Loudest first; equal magnitudes keep their frequency order (as a stable sort would).
    idx.sort((a, b) => m[b]! - m[a]! || a - b);
    const keep = Math.min(MAX_PEAKS, idx.length);
    for (let i = 0; i < keep; i++) {
      hz[n] = scratch.hz[idx[i]!]!;
      mag[n] = m[idx[i]!]! / max;
      n++;
    }
    frames++;
    start[frames] = n;
  });
  return { hz, mag, start, frames };
}

/** Peak `i` of frame `f` lies at 3, 5 or 6 times the frequency of a louder peak of the frame. */
function isOvertone(peaks: FramePeaks, f: number, i: number): boolean {
  const hz = peaks.hz[i]!;
  const mag = peaks.mag[i]!;
  for (let j = peaks.start[f]!; j < peaks.start[f + 1]!; j++) {
    if (j === i || peaks.mag[j]! < mag) continue;
    const ratio = hz / peaks.hz[j]!;
    const h = Math.round(ratio);
    if ((h === 3 || h === 5 || h === 6) && Math.abs(12 * Math.log2(ratio / h)) < OVERTONE_TOLERANCE_SEMITONES) return true;
  }
  return false;
}

/** The window's pitch-class profile (C first) and tuning, from the KEY_RATE signal. */
function tunedPitchProfile(signal: Float32Array): { chroma: Float64Array; tuning: number } {
  const peaks = loudestPeaks(signal);
  const total = peaks.start[peaks.frames]!;
  // Deviation of the peaks from equal temperament at A = 440 Hz, as a circular mean in cents.
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < total; i++) {
    const semis = 12 * Math.log2(peaks.hz[i]! / 440);
    const phase = 2 * Math.PI * (semis - Math.round(semis));
    sx += peaks.mag[i]! * Math.cos(phase);
    sy += peaks.mag[i]! * Math.sin(phase);
  }
  const offset = sx === 0 && sy === 0 ? 0 : Math.atan2(sy, sx) / (2 * Math.PI);
  const chroma = new Float64Array(12);
  const frame = new Float64Array(12);
  for (let f = 0; f < peaks.frames; f++) {
    frame.fill(0);
    for (let i = peaks.start[f]!; i < peaks.start[f + 1]!; i++) {
      const hz = peaks.hz[i]!;
      const pmag = peaks.mag[i]! * (isOvertone(peaks, f, i) ? OVERTONE_WEIGHT : 1);
      for (let h = 1; h <= HARMONICS; h++) {
        const pitch = 69 + 12 * Math.log2(hz / h / 440) - offset;
        const nearest = Math.round(pitch);
        const d = pitch - nearest;
        // Cosine weighting over one semitone, as in HPCP: energy near a tempered pitch counts most.
        const w = Math.cos(Math.PI * d) ** 2 * 0.6 ** (h - 1);
        const pc = ((nearest % 12) + 12) % 12;
        frame[pc]! += w * pmag;
      }
    }
    let fmax = 0;
    for (let k = 0; k < 12; k++) fmax = Math.max(fmax, frame[k]!);
    if (fmax > 0) for (let k = 0; k < 12; k++) chroma[k]! += frame[k]! / fmax >= PCP_THRESHOLD ? frame[k]! / fmax : 0;
  }
  return { chroma, tuning: offset };
}

/**
 * Bass line: the window decimated by 8 (two cascaded 8-sample moving averages, whose zeros fall
 * on the frequencies that would alias onto the bass band) and analysed with 2048-point frames,
 * 2.7 Hz per bin: the 4096-point frames above have 10.8 Hz bins, wider than a semitone below
 * ~180 Hz, so they cannot name a bass note. Same hop as the key frames (4096 input samples).
 */
const BASS_DECIMATION = 8;
const BASS_FRAME = 2048;
const BASS_HOP = 512;
/** The band whose loudest bin is a frame's bass level (for the first bass onset). */
const BASS_MIN_HZ = 30;
const BASS_MAX_HZ = 250;
/**
 * A frame's bass note is the candidate pitch (D1 to A3) whose harmonics sum loudest (harmonic
 * summation), not the loudest peak: many bass sounds (FM and synth basses, bass heard through
 * small speakers) have a weak fundamental and a strong third harmonic, which a peak picker
 * reads as the fifth. Harmonics up to the 8th and 1 kHz, each weighted 0.8 of the one below.
 */
const BASS_LOWEST_MIDI = 26;
const BASS_CANDIDATES = 32;
const BASS_HARMONICS = 8;
const BASS_HARMONIC_DECAY = 0.8;
const BASS_HARMONIC_MAX_HZ = 1000;
/** Seconds of bass read after each phrase start: the first note of the phrase. */
const PHRASE_NOTE_SECONDS = 0.3;
/** Bars per phrase: the tonic's place in pop, rock and dance music is the start of 4-bar phrases. */
const PHRASE_BARS = 4;
/** A bass onset is a frame whose bass level reaches this share of the 90th percentile level. */
const BASS_ONSET_SHARE = 0.1;
/**
 * The relative-key decision (see resolveByBass): the phrase-start bass must favour the other
 * tonic by this share of its profile, and the key profiles must not clearly favour the first
 * reading. Chosen on three rendered sets (synth + 2 held-out soundfonts), checked on others.
 */
const PHRASE_EVIDENCE = 0.2;
const PROFILE_GUARD = 0.2;
/** The same for a key a fifth away: stronger phrase evidence, profiles within 0.1 of each other. */
const FIFTH_EVIDENCE = 0.3;
const FIFTH_GUARD = 0.1;
/**
 * Any other tonic: the phrase-start bass must favour it by this share (nearly every phrase
 * start), and its key must correlate within TONIC_GUARD of the profiles' choice. Chosen on six
 * rendered sets (a plateau from 0.4 to 0.7 and from 0.1 to 0.2).
 */
const TONIC_EVIDENCE = 0.6;
const TONIC_GUARD = 0.15;

/** Krumhansl-Kessler probe-tone profiles (C first), for the relative-key margin. */
const KK_MAJOR = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const KK_MINOR = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

/** Per-frame bass pitch-class profiles (12 per frame, each frame's max 1) and per-frame bass level. */
function bassFrames(signal: Float32Array, tuning: number): { profiles: Float64Array; levels: Float64Array; fps: number } {
  const n = Math.floor(signal.length / BASS_DECIMATION);
  const decimated = new Float32Array(n);
  // Two running sums of 8 samples; only every 8th output is kept.
  const first = new Float64Array(BASS_DECIMATION);
  const second = new Float64Array(BASS_DECIMATION);
  let sum1 = 0;
  let sum2 = 0;
  for (let i = 0; i < n * BASS_DECIMATION; i++) {
    const slot = i % BASS_DECIMATION;
    sum1 += signal[i]! - first[slot]!;
    first[slot] = signal[i]!;
    const avg1 = sum1 / BASS_DECIMATION;
    sum2 += avg1 - second[slot]!;
    second[slot] = avg1;
    if (slot === BASS_DECIMATION - 1) decimated[(i - slot) / BASS_DECIMATION] = sum2 / BASS_DECIMATION;
  }
  const rate = SAMPLE_RATE / BASS_DECIMATION;
  const binHz = rate / BASS_FRAME;
  const lo = Math.max(2, Math.floor(BASS_MIN_HZ / binHz));
  const hi = Math.ceil(BASS_MAX_HZ / binHz);
  const count = Math.max(1, Math.ceil(n / BASS_HOP));
  const profiles = new Float64Array(count * 12);
  const levels = new Float64Array(count);
  // Each candidate's harmonic bins, searched ±half a semitone around h·f0 (tuning-corrected).
  const binLo = new Int32Array(BASS_CANDIDATES * BASS_HARMONICS).fill(-1);
  const binHi = new Int32Array(BASS_CANDIDATES * BASS_HARMONICS);
  const halfSemitone = 2 ** (0.5 / 12);
  for (let c = 0; c < BASS_CANDIDATES; c++) {
    const f0 = 440 * 2 ** ((BASS_LOWEST_MIDI + c + tuning - 69) / 12);
    for (let h = 1; h <= BASS_HARMONICS && h * f0 <= BASS_HARMONIC_MAX_HZ; h++) {
      binLo[c * BASS_HARMONICS + h - 1] = Math.max(1, Math.floor((h * f0) / halfSemitone / binHz));
      binHi[c * BASS_HARMONICS + h - 1] = Math.ceil((h * f0 * halfSemitone) / binHz);
    }
  }
  forEachSpectrum(decimated, BASS_FRAME, BASS_HOP, (f, mags) => {
    let max = 0;
    for (let k = lo; k <= hi; k++) if (mags[k]! > max) max = mags[k]!;
    levels[f] = max;
    if (max <= 0) return;
    const c = loudestHarmonicSum(mags, binLo, binHi);
    if (c >= 0) profiles[f * 12 + ((BASS_LOWEST_MIDI + c) % 12)] = 1;
  });
  return { profiles, levels, fps: rate / BASS_HOP };
}

/**
 * The bass candidate (index from BASS_LOWEST_MIDI) whose harmonics sum loudest in one spectrum,
 * -1 for silence. A kernel of its own so V8 optimises it once per thread, not once per call.
 */
function loudestHarmonicSum(mags: Float64Array, binLo: Int32Array, binHi: Int32Array): number {
  let best = 0;
  let bestC = -1;
  for (let c = 0; c < BASS_CANDIDATES; c++) {
    let sum = 0;
    let w = 1;
    for (let h = 0; h < BASS_HARMONICS; h++, w *= BASS_HARMONIC_DECAY) {
      const k0 = binLo[c * BASS_HARMONICS + h]!;
      if (k0 < 0) break;
      const k1 = binHi[c * BASS_HARMONICS + h]!;
      let m = 0;
      for (let k = k0; k <= k1; k++) if (mags[k]! > m) m = mags[k]!;
      sum += w * m;
    }
    if (sum > best) {
      best = sum;
      bestC = c;
    }
  }
  return bestC;
}

/** What the rhythm stage knows that the key decision can use. */
export interface TonalContext {
  /** Beat times, seconds from the window's start. */
  beats: readonly number[];
  timeSignature: number;
  /** The window starts at the beginning of the file (so it starts where the music's phrases do). */
  fromStart: boolean;
}

interface PhraseBass {
  /** The window's first bass note. */
  opening: Float64Array;
  /** The first bass note of every phrase: the opening, then every 4 bars along the beats. */
  phrases: Float64Array;
}

/**
 * Bass pitch-class profiles of the phrase starts: the first bass note of the window and the bass
 * every 4 bars after it, counted along the tracked beats (so tempo drift does not move the grid).
 */
function phraseStartBass(bass: ReturnType<typeof bassFrames>, context: TonalContext): PhraseBass | undefined {
  const { profiles, levels, fps } = bass;
  const frames = levels.length;
  const sorted = Float64Array.from(levels).sort();
  const p90 = sorted[Math.floor(0.9 * (frames - 1))]!;
  if (!(p90 > 0)) return undefined;
  let first = 0;
  while (first < frames && levels[first]! < BASS_ONSET_SHARE * p90) first++;
  if (first >= frames || context.beats.length === 0) return undefined;
  const onset = first / fps;
  let b0 = 0;
  for (let i = 1; i < context.beats.length; i++) {
    if (Math.abs(context.beats[i]! - onset) < Math.abs(context.beats[b0]! - onset)) b0 = i;
  }
  const step = PHRASE_BARS * (context.timeSignature || 4);
  const span = Math.max(1, Math.round(PHRASE_NOTE_SECONDS * fps));
  const opening = new Float64Array(12);
  const phrases = new Float64Array(12);
  for (let i = b0; i < context.beats.length; i += step) {
    const start = i === b0 ? Math.min(context.beats[i]!, onset) : context.beats[i]!;
    const f0 = Math.max(0, Math.round(start * fps));
    for (let f = f0; f < Math.min(frames, f0 + span); f++) {
      for (let pc = 0; pc < 12; pc++) {
        phrases[pc]! += profiles[f * 12 + pc]!;
        if (i === b0) opening[pc]! += profiles[f * 12 + pc]!;
      }
    }
  }
  return { opening, phrases };
}

/** Share of the profile on pitch class `a` minus its share on `b`. */
function shareDifference(profile: Float64Array, a: number, b: number): number {
  let total = 0;
  for (let pc = 0; pc < 12; pc++) total += profile[pc]!;
  return total > 0 ? (profile[a]! - profile[b]!) / total : 0;
}

function correlation(chroma: ArrayLike<number>, profile: readonly number[], tonic: number): number {
  let mx = 0;
  let mp = 0;
  for (let i = 0; i < 12; i++) {
    mx += chroma[i]!;
    mp += profile[i]!;
  }
  mx /= 12;
  mp /= 12;
  let sxy = 0;
  let sxx = 0;
  let spp = 0;
  for (let i = 0; i < 12; i++) {
    const a = chroma[(i + tonic) % 12]! - mx;
    const b = profile[i]! - mp;
    sxy += a * b;
    sxx += a * a;
    spp += b * b;
  }
  return sxx > 0 ? sxy / Math.sqrt(sxx * spp) : 0;
}

/**
 * A natural-minor song (i-VI-III-VII, no raised leading tone) has the pitch content of its
 * relative major, so profiles cannot tell them apart; where the tonic sits in time can: songs
 * start their phrases on the tonic. When the bass at the phrase starts favours the relative
 * key's tonic (both the window's first bass note and the phrase starts together) and the key
 * profiles do not clearly favour the first reading, the relative key wins.
 * Then a key a fifth away, then any other tonic the phrase starts nearly all sit on.
 * Returns the key to report and the evidence used (positive: minor), or undefined to keep it.
 */
export function resolveByBass(
  key: number,
  mode: 0 | 1,
  chroma: ArrayLike<number>,
  phraseBass: PhraseBass,
): { key: number; mode: 0 | 1; evidence: number } | undefined {
  const majorTonic = mode === 1 ? key : (key + 3) % 12;
  const minorTonic = (majorTonic + 9) % 12;
  const evidence = phraseEvidence(phraseBass, minorTonic, majorTonic);
  const profileMargin = correlation(chroma, KK_MINOR, minorTonic) - correlation(chroma, KK_MAJOR, majorTonic);
  const towardFirst = mode === 0 ? 1 : -1;
  if (-towardFirst * evidence > PHRASE_EVIDENCE && towardFirst * profileMargin < PROFILE_GUARD) {
    return mode === 0 ? { key: majorTonic, mode: 1, evidence } : { key: minorTonic, mode: 0, evidence };
  }
  // A key a fifth away in the same mode shares six of seven scale tones (I-IV-V in F# has the
  // pitch content of IV-I-ii in C#): the phrase starts decide when the profiles nearly tie.
  const profile = mode === 1 ? KK_MAJOR : KK_MINOR;
  const own = correlation(chroma, profile, key);
  for (const step of [5, 7]) {
    const other = (key + step) % 12;
    const toward = phraseEvidence(phraseBass, other, key);
    if (toward > FIFTH_EVIDENCE && own - correlation(chroma, profile, other) < FIFTH_GUARD) return { key: other, mode, evidence: toward };
  }
  // Any other tonic: only when the phrase starts are nearly all on it and its key fits the
  // pitch content almost as well (a song on I-ii-V-I read as the key of V or of ii).
  let tonic = 0;
  for (let pc = 1; pc < 12; pc++) if (phraseBass.phrases[pc]! > phraseBass.phrases[tonic]!) tonic = pc;
  const toward = phraseEvidence(phraseBass, tonic, key);
  if (tonic === key || toward < TONIC_EVIDENCE) return undefined;
  const asMajor = correlation(chroma, KK_MAJOR, tonic);
  const asMinor = correlation(chroma, KK_MINOR, tonic);
  const tonicMode = modeByThird(tonic, chroma) ?? (asMajor >= asMinor ? 1 : 0);
  if (own - (tonicMode === 1 ? asMajor : asMinor) >= TONIC_GUARD) return undefined;
  return { key: tonic, mode: tonicMode, evidence: tonicMode === 0 ? toward : -toward };
}

/**
 * Share of the phrase-start bass on tonic `a` minus the share on tonic `b`, from the opening note
 * and the phrase starts, which must agree; the weaker of the two counts. (The opening alone is
 * one note; the phrase grid alone can slip where the beat tracking does.)
 */
function phraseEvidence(phraseBass: PhraseBass, a: number, b: number): number {
  const opening = shareDifference(phraseBass.opening, a, b);
  const phrases = shareDifference(phraseBass.phrases, a, b);
  return Math.sign(opening) === Math.sign(phrases) ? Math.sign(opening) * Math.min(Math.abs(opening), Math.abs(phrases)) : 0;
}

/**
 * The mode the tonic's third names, when the thirds are weak and one clearly outweighs the other.
 * Songs on i-iv-V with a root-and-fifth bass carry little third at all, and profile matching
 * then decides the mode on the other degrees (often for major); the third is what makes a key
 * major or minor. Weak: both thirds below THIRD_WEAK of the strongest pitch class (strong
 * thirds are already what the profiles weigh). Clearly: one above THIRD_RATIO times the other
 * plus 0.02 of the strongest. Chosen on six rendered sets (BENCHMARKS.md, Accuracy).
 * Returns undefined when the third does not decide.
 */
function modeByThird(tonic: number, chroma: ArrayLike<number>): 0 | 1 | undefined {
  let max = 0;
  for (let i = 0; i < 12; i++) max = Math.max(max, chroma[i]!);
  if (!(max > 0)) return undefined;
  const minor = chroma[(tonic + 3) % 12]! / max;
  const major = chroma[(tonic + 4) % 12]! / max;
  if (Math.max(minor, major) >= THIRD_WEAK) return undefined;
  if (minor > THIRD_RATIO * major + THIRD_MARGIN) return 0;
  if (major > THIRD_RATIO * minor + THIRD_MARGIN) return 1;
  return undefined;
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
  const out = withVector(essentia, fromA, (v) => essentia.Key(v, 4, 12, profile, 0.6, false, false, false)) as {
    key: string;
    scale: string;
    strength: number;
    firstToSecondRelativeStrength: number;
  };
  return {
    key: pitchClassOf(out.key) ?? 0,
    mode: out.scale === 'major' ? 1 : 0,
    strength: out.strength,
    relative: out.firstToSecondRelativeStrength,
  };
}

/** essentia's key of the KEY_RATE signal. */
function extractKey(essentia: Essentia, signal: Float32Array): Omit<KeyEstimate, 'relative'> {
  const out = withVector(essentia, signal, (v) =>
    essentia.KeyExtractor(v, true, FRAME, HOP, 12, 3500, 60, 25, 0.2, PROFILE, KEY_RATE),
  ) as { key: string; scale: string; strength: number };
  return { key: pitchClassOf(out.key) ?? 0, mode: out.scale === 'major' ? 1 : 0, strength: out.strength };
}

function normalizeMax(x: Float64Array): number[] {
  let max = 0;
  for (const v of x) max = Math.max(max, v);
  return Array.from(x, (v) => (max > 0 ? v / max : 0));
}

export function analyzeTonal(essentia: Essentia, signal: Float32Array, sampleRate: 44100, context?: TonalContext): TonalResult {
  if (sampleRate !== SAMPLE_RATE) throw new Error(`analyzeTonal expects ${SAMPLE_RATE} Hz, got ${sampleRate}`);
  // 22.05 kHz (KEY_RATE): each pair of samples averaged. That two-tap low-pass lets aliases
  // through, but only content above 18.5 kHz lands below the 3.5 kHz the key reads, at least
  // 12 dB down (and lossy files carry none there).
  const half = decimateByMean(signal, 2);
  const { chroma, tuning } = tunedPitchProfile(half);
  const chromaOut = normalizeMax(chroma);
  if (chromaOut.every((v) => v === 0)) {
    return { key: 0, mode: 1, keyConfidence: 0, modeConfidence: 0, strength: 0, chroma: chromaOut };
  }
  const extracted = extractKey(essentia, half);
  const second = estimateKey(essentia, chroma, PROFILE);
  // Phrase positions only mean something when the window starts where the music does.
  const phraseBass = context?.fromStart ? phraseStartBass(bassFrames(signal, tuning), context) : undefined;
  const byBass = phraseBass ? resolveByBass(extracted.key, extracted.mode, chroma, phraseBass) : undefined;
  if (byBass) {
    return {
      key: byBass.key,
      mode: modeByThird(byBass.key, chroma) ?? byBass.mode,
      // The profiles preferred another reading: the key is less sure, the mode as sure as the
      // phrase-start bass is one-sided.
      keyConfidence: clamp01(extracted.strength * 0.6),
      modeConfidence: clamp01(Math.abs(byBass.evidence)),
      strength: extracted.strength,
      chroma: chromaOut,
    };
  }
  const byThird = modeByThird(extracted.key, chroma);
  if (byThird !== undefined && byThird !== extracted.mode) {
    // The profiles chose the mode on the other scale degrees; the third itself says otherwise.
    return {
      key: extracted.key,
      mode: byThird,
      keyConfidence: clamp01(extracted.strength * 0.6),
      modeConfidence: 0.25,
      strength: extracted.strength,
      chroma: chromaOut,
    };
  }
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
