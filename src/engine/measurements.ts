import type { Essentia } from 'essentia.js';
import FFT = require('fft.js');
import { pitchClassOf } from '../core/music';
import { withVector } from './essentia';
import { hann, mean } from './signal';

/**
 * Signal measurements the descriptors are built from, other than rhythm and key: spectral shape,
 * the level distribution over time (pauses, noise floor) and its modulation (syllable rate),
 * and essentia's Danceability and DynamicComplexity.
 *
 * The short-time spectra are computed in JS (fft.js): through essentia.js every frame costs a
 * WASM round trip per algorithm (~0.5 ms for Windowing + Spectrum alone, ~0.4 s per 30 s),
 * ten times the FFT itself.
 */
export interface SpectralMeasurements {
  /** Mean spectral centroid of the audible frames, Hz. */
  centroid: number;
  /** Mean frequency below which 85 % of the spectral energy lies, Hz. */
  rolloff: number;
  /** Mean spectral flatness (Wiener entropy, 0 tonal … 1 white noise) of the audible frames, 50 Hz–16 kHz. */
  flatness: number;
  /** Mean zero-crossing rate of the audible frames (crossings per sample). */
  zcr: number;
  /** Coefficient of variation of the zero-crossing rate across audible frames: voiced/unvoiced alternation. */
  zcrVariation: number;
  /** Coefficient of variation of the spectral centroid across audible frames. */
  centroidVariation: number;
  /** Share of frames with less than half the mean power of the second around them (Scheirer & Slaney 1997). */
  lowEnergyRatio: number;
  /** Share of frames more than 30 dB below the loud (90th percentile) level: pauses. */
  pauseRatio: number;
  /** Level of the quiet frames (10th percentile) relative to the loud ones (90th percentile), dB (<= 0). */
  floorDb: number;
  /** Spectral flatness of the quietest 20 % of audible frames: broadband noise (crowd, room) between notes. */
  floorFlatness: number;
  /** Share of the level envelope's modulation (0.5–16 Hz) that lies between 2.5 and 8 Hz: syllable rate. */
  syllabicModulation: number;
  /** Peakiness of the envelope modulation spectrum (max / mean, 0.5–16 Hz): periodic beats vs irregular syllables. */
  modulationPeakiness: number;
  /** Energy above 4 kHz relative to all, 0–1: brightness and distortion harmonics. */
  highFrequencyRatio: number;
  /** Energy below 200 Hz relative to all, 0–1: bass weight. */
  lowFrequencyRatio: number;
  /** Mean positive change of the normalised log spectrum between frames: how busy the texture is. */
  spectralFlux: number;
  /** 12 pitch-class energies (C first) per spectral frame, 250 Hz–5 kHz, for per-section keys. */
  frameChroma: Float32Array;
  /** Spectral frames per second (of frameChroma). */
  spectralFrameRate: number;
  /** Frame level in dB (power), one per hop, for sectioning. */
  frameDb: Float64Array;
  /** Frames per second of frameDb. */
  frameRate: number;
}

export interface EssentiaMeasurements {
  /** essentia Danceability (detrended fluctuation analysis), 0 … ~3. */
  danceability: number;
  /** essentia DynamicComplexity: mean deviation from the global level, dB. */
  dynamicComplexity: number;
}

// Local bindings for the per-bin loops (a global lookup per call is measurable there, and
// several times slower under Jest's vm sandbox).
const { log, sqrt, exp, log10 } = Math;

const FRAME = 2048;
/** Spectral frames do not overlap: the means and spreads below need coverage, not time detail. */
const SPECTRAL_HOP = 2048;
/** Hop of the level envelope (~86 frames/s): fine enough for syllables and pauses. */
const ENVELOPE_HOP = 512;
/** Frames quieter than this below the loud level are left out of the timbre means. */
const AUDIBLE_DB = 40;

/** Sum of squares of signal[from, to). */
function sumOfSquares(signal: Float32Array, from: number, to: number): number {
  let sumSq = 0;
  for (let i = from; i < to; i++) sumSq += signal[i]! * signal[i]!;
  return sumSq;
}

/** Level in dB (mean power) of every `hop` samples. */
function levelEnvelope(signal: Float32Array, hop: number): Float64Array {
  const frames = Math.max(1, Math.floor(signal.length / hop));
  const db = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    const end = Math.min(signal.length, (f + 1) * hop);
    db[f] = 10 * log10(sumOfSquares(signal, f * hop, end) / hop + 1e-12);
  }
  return db;
}

/** Per-frame series of one window's spectral frames. */
interface SpectralSeries {
  spectralDb: Float64Array;
  centroid: Float64Array;
  rolloff: Float64Array;
  flatness: Float64Array;
  zcr: Float64Array;
  flux: Float64Array;
  frameChroma: Float32Array;
  /** Summed power below 200 Hz, above 4 kHz and in all bins, over the frames so far. */
  energy: Float64Array;
}

/**
 * The FFT, window, bin tables and scratch buffers of the spectral frames at one sample rate,
 * built once per thread. The per-frame work is `frame`, a method called once per frame, so that
 * it is optimised once and stays optimised from clip to clip (see signal.ts).
 */
class SpectralFrames {
  private readonly fft = new FFT(FRAME);
  private readonly out = new Float64Array(FRAME * 2);
  private readonly input = new Float64Array(FRAME);
  private readonly window = hann(FRAME);
  private readonly power = new Float64Array(FRAME / 2 + 1);
  /** Normalised log spectra of the previous and the current frame (swapped every frame). */
  private previousLog = new Float64Array(FRAME / 2 + 1);
  private currentLog = new Float64Array(FRAME / 2 + 1);
  private readonly binHz: number;
  private readonly loBin: number;
  private readonly hiBin: number;
  private readonly bin200: number;
  private readonly bin4k: number;
  private readonly binPitchClass = new Int8Array(FRAME / 2 + 1).fill(-1);

  constructor(sampleRate: number) {
    const binHz = sampleRate / FRAME;
    this.binHz = binHz;
    this.loBin = Math.max(1, Math.round(50 / binHz));
    this.hiBin = Math.min(FRAME / 2, Math.round(16000 / binHz));
    this.bin200 = Math.round(200 / binHz);
    this.bin4k = Math.round(4000 / binHz);
    const chromaLo = Math.round(250 / binHz);
    const chromaHi = Math.round(5000 / binHz);
    for (let k = chromaLo; k <= chromaHi; k++) {
      this.binPitchClass[k] = (((Math.round(69 + 12 * Math.log2((k * binHz) / 440)) % 12) + 12) % 12);
    }
  }

  /** Measures frame `f` (starting at sample f * SPECTRAL_HOP) into `series`. */
  frame(signal: Float32Array, f: number, series: SpectralSeries): void {
    const { input, window, power, binHz, loBin, hiBin, bin200, bin4k, binPitchClass } = this;
    const half = FRAME / 2;
    const bins = hiBin - loBin + 1;
    const start = f * SPECTRAL_HOP;
    const available = Math.min(FRAME, signal.length - start);
    let sumSq = 0;
    let crossings = 0;
    let prev = signal[start] ?? 0;
    for (let i = 0; i < available; i++) {
      const x = signal[start + i]!;
      sumSq += x * x;
      if (x >= 0 !== prev >= 0) crossings++;
      prev = x;
      input[i] = x * window[i]!;
    }
    input.fill(0, Math.max(0, available));
    series.spectralDb[f] = 10 * log10(sumSq / FRAME + 1e-12);
    series.zcr[f] = crossings / FRAME;
    this.fft.realTransform(this.out, input);
    const out = this.out;
    const frameChroma = series.frameChroma;
    let sum = 0;
    let weighted = 0;
    // Running totals over the frames, added to bin by bin as before (same rounding).
    let lowEnergy = series.energy[0]!;
    let highEnergy = series.energy[1]!;
    for (let k = 0; k <= half; k++) {
      const re = out[2 * k]!;
      const im = out[2 * k + 1]!;
      const p = re * re + im * im;
      power[k] = p;
      sum += p;
      weighted += p * k;
      if (k < bin200) lowEnergy += p;
      else if (k >= bin4k) highEnergy += p;
      const pc = binPitchClass[k]!;
      if (pc >= 0) frameChroma[f * 12 + pc]! += sqrt(p);
    }
    series.energy[0] = lowEnergy;
    series.energy[1] = highEnergy;
    series.energy[2]! += sum;
    series.centroid[f] = sum > 0 ? (weighted / sum) * binHz : 0;
    const target = 0.85 * sum;
    let acc = 0;
    let k85 = 0;
    while (k85 < half && acc + power[k85]! < target) acc += power[k85++]!;
    series.rolloff[f] = k85 * binHz;
    // Flatness and flux share one log per bin; flux is of the level-normalised log spectrum,
    // so it measures change of texture, not of loudness.
    const currentLog = this.currentLog;
    const previousLog = this.previousLog;
    const norm = log(sum / (half + 1) + 1e-12);
    let logSum = 0;
    let bandSum = 0;
    let fl = 0;
    for (let k = loBin; k <= hiBin; k++) {
      const p = power[k]!;
      const lp = log(p + 1e-12);
      logSum += lp;
      bandSum += p;
      const l = lp - norm;
      currentLog[k] = l;
      const d = l - previousLog[k]!;
      if (d > 0) fl += d;
    }
    series.flatness[f] = bandSum > 0 ? exp(logSum / bins) / (bandSum / bins + 1e-12) : 0;
    // At f = 0 the previous log spectrum is another clip's (or zeros): its flux is not used.
    series.flux[f] = f > 0 ? fl / bins : 0;
    this.previousLog = currentLog;
    this.currentLog = previousLog;
  }
}

const spectralFramesByRate = new Map<number, SpectralFrames>();

/** Measures spectral shape and level statistics of a mono 44.1 kHz signal. */
export function measureSpectrum(signal: Float32Array, sampleRate: number): SpectralMeasurements {
  const frames = Math.max(1, Math.floor((signal.length - FRAME) / SPECTRAL_HOP) + 1);
  let kit = spectralFramesByRate.get(sampleRate);
  if (!kit) {
    kit = new SpectralFrames(sampleRate);
    spectralFramesByRate.set(sampleRate, kit);
  }
  const series: SpectralSeries = {
    spectralDb: new Float64Array(frames),
    centroid: new Float64Array(frames),
    rolloff: new Float64Array(frames),
    flatness: new Float64Array(frames),
    zcr: new Float64Array(frames),
    flux: new Float64Array(frames),
    frameChroma: new Float32Array(frames * 12),
    energy: new Float64Array(3),
  };
  for (let f = 0; f < frames; f++) kit.frame(signal, f, series);
  const { spectralDb, centroid, rolloff, flatness, zcr, flux, frameChroma } = series;
  const lowEnergy = series.energy[0]!;
  const highEnergy = series.energy[1]!;
  const totalEnergy = series.energy[2]!;

  const spectralLoud = percentile(spectralDb, 0.9);
  const audible: number[] = [];
  for (let f = 0; f < frames; f++) if (spectralDb[f]! > spectralLoud - AUDIBLE_DB) audible.push(f);
  const pick = (values: Float64Array): number[] => audible.map((f) => values[f]!);
  const quietest = [...audible]
    .sort((a, b) => spectralDb[a]! - spectralDb[b]!)
    .slice(0, Math.max(1, Math.floor(audible.length * 0.2)));

  const frameDb = levelEnvelope(signal, ENVELOPE_HOP);
  const frameRate = sampleRate / ENVELOPE_HOP;
  const loud = percentile(frameDb, 0.9);
  const modulation = modulationSpectrum(frameDb, frameRate);
  return {
    centroid: mean(pick(centroid)),
    rolloff: mean(pick(rolloff)),
    flatness: mean(pick(flatness)),
    zcr: mean(pick(zcr)),
    zcrVariation: variation(pick(zcr)),
    centroidVariation: variation(pick(centroid)),
    lowEnergyRatio: lowEnergyRatio(frameDb, Math.round(frameRate)),
    pauseRatio: frameDb.filter((db) => db < loud - 30).length / frameDb.length,
    floorDb: Math.min(0, percentile(frameDb, 0.1) - loud),
    floorFlatness: mean(quietest.map((f) => flatness[f]!)),
    syllabicModulation: modulation.syllabic,
    modulationPeakiness: modulation.peakiness,
    highFrequencyRatio: totalEnergy > 0 ? highEnergy / totalEnergy : 0,
    lowFrequencyRatio: totalEnergy > 0 ? lowEnergy / totalEnergy : 0,
    spectralFlux: mean(pick(flux)),
    frameChroma,
    spectralFrameRate: sampleRate / SPECTRAL_HOP,
    frameDb,
    frameRate,
  };
}

/** essentia's Danceability and DynamicComplexity of a mono 44.1 kHz signal. */
export function measureWithEssentia(essentia: Essentia, signal: Float32Array, sampleRate: number): EssentiaMeasurements {
  return withVector(essentia, signal, (vector) => {
    const dance = essentia.Danceability(vector, 8800, 310, sampleRate) as { danceability: number; dfa: { delete(): void } };
    dance.dfa.delete();
    const dynamics = essentia.DynamicComplexity(vector, 0.2, sampleRate) as { dynamicComplexity: number };
    return { danceability: dance.danceability, dynamicComplexity: dynamics.dynamicComplexity };
  });
}

/** FFTs of the modulation spectrum by size (one per window length), built once per thread. */
const modulationFfts = new Map<number, { fft: InstanceType<typeof FFT>; out: Float64Array }>();

/**
 * Modulation spectrum of the level envelope (dB, mean removed, clamped 50 dB below the peak so
 * that pauses count as dips, not as -120 dB cliffs): where its energy lies and how peaked it is.
 */
function modulationSpectrum(frameDb: Float64Array, frameRate: number): { syllabic: number; peakiness: number } {
  const size = 1 << Math.max(2, Math.ceil(Math.log2(Math.max(4, frameDb.length))));
  const top = percentile(frameDb, 0.95);
  const env = new Float64Array(size);
  let mean = 0;
  for (let i = 0; i < frameDb.length; i++) mean += Math.max(frameDb[i]!, top - 50);
  mean /= frameDb.length;
  for (let i = 0; i < frameDb.length; i++) {
    const hannW = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / Math.max(1, frameDb.length - 1));
    env[i] = (Math.max(frameDb[i]!, top - 50) - mean) * hannW;
  }
  let transform = modulationFfts.get(size);
  if (!transform) {
    transform = { fft: new FFT(size), out: new Float64Array(size * 2) };
    modulationFfts.set(size, transform);
  }
  const { fft, out } = transform;
  fft.realTransform(out, env);
  const hz = frameRate / size;
  let total = 0;
  let band = 0;
  let peak = 0;
  let count = 0;
  for (let k = Math.ceil(0.5 / hz); k <= Math.min(size / 2, Math.floor(16 / hz)); k++) {
    const p = out[2 * k]! ** 2 + out[2 * k + 1]! ** 2;
    total += p;
    count++;
    if (p > peak) peak = p;
    const f = k * hz;
    if (f >= 2.5 && f <= 8) band += p;
  }
  if (total <= 0 || count === 0) return { syllabic: 0, peakiness: 0 };
  return { syllabic: band / total, peakiness: peak / (total / count) };
}

function lowEnergyRatio(frameDb: Float64Array, span: number): number {
  let low = 0;
  for (let start = 0; start < frameDb.length; start += span) {
    const end = Math.min(frameDb.length, start + span);
    let meanPower = 0;
    for (let i = start; i < end; i++) meanPower += 10 ** (frameDb[i]! / 10);
    meanPower /= end - start;
    for (let i = start; i < end; i++) if (10 ** (frameDb[i]! / 10) < 0.5 * meanPower) low++;
  }
  return frameDb.length > 0 ? low / frameDb.length : 0;
}

export function percentile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))]!;
}

function variation(values: readonly number[]): number {
  const m = mean(values);
  if (m <= 0) return 0;
  let s = 0;
  for (const v of values) s += (v - m) ** 2;
  return sqrt(s / values.length) / m;
}

/**
 * Key of a pitch-class profile (C first) with essentia's Key and the bgate profile (the best
 * measured in notes/audio.md). Used for sections, whose profile comes from the spectral frames
 * above (2048-point FFT: coarser than the window's key measurement, and cheap).
 */
export function keyOfChroma(essentia: Essentia, chroma: ArrayLike<number>): { key: number; mode: 0 | 1; strength: number } {
  let total = 0;
  for (let i = 0; i < 12; i++) total += chroma[i] ?? 0;
  if (!(total > 0)) return { key: 0, mode: 1, strength: 0 };
  // essentia's key profiles, like its HPCP, start at A.
  const fromA = Float32Array.from({ length: 12 }, (_, i) => chroma[(i + 9) % 12] ?? 0);
  return withVector(essentia, fromA, (vector) => {
    const out = essentia.Key(vector, 4, 12, 'bgate', 0.6, false, true, true) as { key: string; scale: string; strength: number };
    return { key: pitchClassOf(out.key) ?? 0, mode: out.scale === 'minor' ? 0 : 1, strength: out.strength };
  });
}
