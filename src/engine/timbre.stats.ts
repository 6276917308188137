import FFT from 'fft.js';
import { BINS as FRAME_BINS, BIN_HZ, FRAMES_PER_SECOND, type Spectrogram } from './signal.stft';

/** Bound in this module, for the per-bin loops below (see BINS in signal.stft.ts). */
const BINS = FRAME_BINS;

// Local bindings: under Jest's vm sandbox a global lookup per bin is several times slower.
const { PI, cos, exp, log, log10, sqrt } = Math;

/**
 * Spectral shape and level statistics of the window, read from the shared spectrogram (every
 * fourth frame: 93 ms apart, frames that touch without overlapping, enough for means and spreads) and its 23 ms level blocks. The
 * descriptors are built from these (descriptors.ts, docs/FEATURES.md).
 */
export interface TimbreStats {
  /** Mean spectral centroid of the audible frames, Hz. */
  centroid: number;
  /** Coefficient of variation of the centroid across audible frames (voiced/unvoiced alternation in speech). */
  centroidVariation: number;
  /** Mean frequency below which 85 % of the energy lies, Hz. */
  rolloff: number;
  /** Mean spectral flatness (Wiener entropy) of the audible frames between 500 Hz and 8 kHz: 0 tonal … 1 noise; distortion raises it. */
  flatness: number;
  /** Energy above 4 kHz over all, 0-1. */
  highFrequencyRatio: number;
  /** Energy below 200 Hz over all, 0-1. */
  lowFrequencyRatio: number;
  /** Energy from 200 Hz to 2 kHz over all, 0-1: the mid-range (chords, voice, pads) against the bass and the treble. */
  midFrequencyRatio: number;
  /**
   * Spectral contrast of 200-400 Hz, dB: the strongest bin of the octave over the band's
   * geometric mean power, mean over the audible frames. Clean, sparse notes stand far above
   * what lies between their partials (20-30 dB and more); dense mixes, distortion and noise fill
   * the valleys (10-18 dB).
   */
  lowContrast: number;
  /**
   * Spectral contrast of 1-4 kHz, dB, as lowContrast: the band's strongest bin over its
   * geometric mean power, mean over the audible frames whose band sounds (its strongest bin
   * within 40 dB of the frame's); NaN when none does (a pad of low notes). The band of a
   * distorted guitar's and a brass section's bite and of a shouted voice, under most of the
   * cymbals' energy: clean notes stand far above the valleys between their partials (sparse
   * piano ~60 dB, a drum, bass and chords mix ~32); distortion, dense layers and noise fill them
   * (distorted rock ~22 dB, white noise ~10).
   */
  midContrast: number;
  /**
   * How smoothly the level moves over 0.2-0.75 s: the detrended-fluctuation exponent of the
   * 23 ms block levels (dB) between windows of 8 and 32 blocks. ~0.5 when the level jumps from
   * one block to the next at random (a beat that pulses), ~1 and above when it swells and fades
   * (held notes, legato, slow dynamics).
   */
  levelSmoothness: number;
  /**
   * Mean number of partials sounding at once in 50 Hz-2 kHz: the spectral peaks (local maxima)
   * within 20 dB of the band's strongest bin and 40 dB of the frame's, per audible frame. A single
   * held note reads its few harmonics; full chords, layered parts and a busy arrangement read many
   * (12-16).
   */
  partials: number;
  /** Mean positive change of the level-normalised log spectrum between frames: how busy the texture is. */
  spectralFlux: number;
  /** Mean zero-crossing rate (crossings per sample at 22.05 kHz). */
  zcr: number;
  /** Share of 23 ms blocks with less than half the mean power of the second around them (Scheirer & Slaney 1997). */
  lowEnergyRatio: number;
  /** Share of blocks more than 30 dB below the loud (90th percentile) level: pauses. */
  pauseRatio: number;
  /** Level of the quiet blocks (10th percentile) under the loud ones (90th percentile), dB (<= 0). */
  floorDb: number;
  /** Flatness (30 Hz-11 kHz) of the quietest fifth of the audible frames: broadband noise (crowd, room) between notes. */
  floorFlatness: number;
  /** Share of the level envelope's modulation (0.5-16 Hz) between 2.5 and 8 Hz: syllable rate. */
  syllabicModulation: number;
  /** Peak-to-mean ratio of that modulation spectrum: periodic beats against irregular syllables. */
  modulationPeakiness: number;
  /**
   * How fast the levels of the spectrum's regions fluctuate: the centroid, Hz, of the modulation
   * spectra (0.3-16 Hz) of four bands' levels (30-150 Hz, 150-600 Hz, 600 Hz-2.4 kHz, 2.4-9.6 kHz;
   * dB on every frame, floored 60 dB under the loudest), read in segments of 256 frames (5.9 s),
   * half overlapping, and summed over the bands: Pampalk's fluctuation-pattern gravity. Each band
   * is read alone so that a kick's pulse does not hide the hats' or the strummed chords' faster
   * flicker. A sine pad reads ~2.4 Hz, sparse piano ~3.5, a drum, bass and chords mix ~4.2, dense
   * distorted rock ~4.9 (the corpora 3.4-6.0); NaN for a window under 16 frames.
   */
  modulationCentroid: number;
  /** Block level in dB, one per spectrogram frame, for sectioning. */
  blockDb: Float64Array;
}

const AUDIBLE_DB = 40;
const FLAT_LO = Math.round(500 / BIN_HZ);
const FLAT_HI = Math.round(8000 / BIN_HZ);
const BIN_200 = Math.round(200 / BIN_HZ);
const BIN_400 = Math.round(400 / BIN_HZ);
const BIN_1K = Math.round(1000 / BIN_HZ);
/** 40 dB in natural log of power: a 1-4 kHz band that far under the frame's strongest bin is not measured. */
const MID_SILENT = 4 * Math.LN10;
const BIN_2K = Math.round(2000 / BIN_HZ);
const BIN_4K = Math.round(4000 / BIN_HZ);
/** The band whose partials are counted, bins (50 Hz-2 kHz), and the level under its strongest bin that still counts (-20 dB, amplitude). */
const PARTIALS_LO = Math.round(50 / BIN_HZ);
const PARTIALS_HI = BIN_2K;
const PARTIALS_FLOOR = 0.1;
/** A partial must also stand within 40 dB of the frame's strongest bin. */
const PARTIALS_SILENT = 0.01;
/** Windows of the level's fluctuation analysis, blocks (23 ms): 0.19 and 0.74 s. */
const DFA_SHORT = 8;
const DFA_LONG = 32;
const FIRST_BIN = Math.max(1, Math.round(30 / BIN_HZ));
const MODULATION_SIZE = 2048;
/** The fluctuation bands' edges, bins (30, 150, 600, 2400 and 9600 Hz: two octaves each). */
const FLUCTUATION_EDGES = [30, 150, 600, 2400, 9600].map((hz) => Math.round(hz / BIN_HZ));
/** Frames per fluctuation segment (5.9 s: a 0.17 Hz modulation resolution) and between segments. */
const FLUCTUATION_SEGMENT = 256;
const FLUCTUATION_HOP = 128;
/** Levels this far under the window's loudest band level are read as this level: silence does not flicker. */
const FLUCTUATION_RANGE_DB = 60;

interface FrameSeries {
  db: number[];
  centroid: number[];
  rolloff: number[];
  flatness: number[];
  fullFlatness: number[];
  flux: number[];
  contrast: number[];
  midContrast: number[];
  partials: number[];
  /** Energy below 200 Hz, above 4 kHz, in all, from 200 Hz to 2 kHz. */
  energy: Float64Array;
}

function percentile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))]!;
}

/** The mean, 0 for none. */
export function meanOf(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return values.length > 0 ? sum / values.length : 0;
}

/** The mean of the finite values, NaN for none. */
function finiteMean(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite);
  return finite.length > 0 ? meanOf(finite) : NaN;
}

function variation(values: readonly number[]): number {
  const m = meanOf(values);
  if (!(m > 0)) return 0;
  return sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / values.length) / m;
}

/** The statistics of frame `f`, appended to `series`; `prevLog`/`curLog` hold the normalised log spectra. */
function measureFrame(mags: Float32Array, f: number, prevLog: Float64Array, curLog: Float64Array, first: boolean, s: FrameSeries): void {
  const row = f * BINS;
  let sum = 0;
  let weighted = 0;
  let low = 0;
  let mid = 0;
  let high = 0;
  let peak = 0;
  let bandPeak = 0;
  for (let k = FIRST_BIN; k < BINS; k++) {
    const p = mags[row + k]! * mags[row + k]!;
    sum += p;
    if (p > peak) peak = p;
    if (k >= PARTIALS_LO && k < PARTIALS_HI && p > bandPeak) bandPeak = p;
    weighted += p * k;
    if (k < BIN_200) low += p;
    else if (k < BIN_2K) mid += p;
    else if (k >= BIN_4K) high += p;
  }
  s.energy[0]! += low;
  s.energy[1]! += high;
  s.energy[2]! += sum;
  s.energy[3]! += mid;
  s.db.push(10 * log10(sum + 1e-12));
  s.centroid.push(sum > 0 ? (weighted / sum) * BIN_HZ : 0);
  let acc = 0;
  let k85 = FIRST_BIN;
  while (k85 < BINS - 1 && acc + mags[row + k85]! ** 2 < 0.85 * sum) acc += mags[row + k85++]! ** 2;
  s.rolloff.push(k85 * BIN_HZ);
  let logSum = 0;
  let bandSum = 0;
  for (let k = FLAT_LO; k <= FLAT_HI; k++) {
    const p = mags[row + k]! * mags[row + k]!;
    logSum += log(p + 1e-20);
    bandSum += p;
  }
  const n = FLAT_HI - FLAT_LO + 1;
  s.flatness.push(bandSum > 0 ? exp(logSum / n) / (bandSum / n) : 0);
  const norm = log(sum / BINS + 1e-12);
  let flux = 0;
  let fullLogSum = 0;
  let lowLogSum = 0;
  let lowLogMax = -Infinity;
  let midLogSum = 0;
  let midLogMax = -Infinity;
  for (let k = FIRST_BIN; k < BINS; k++) {
    const lp = log(mags[row + k]! ** 2 + 1e-12);
    fullLogSum += lp;
    if (k >= BIN_200 && k < BIN_400) {
      lowLogSum += lp;
      if (lp > lowLogMax) lowLogMax = lp;
    } else if (k >= BIN_1K && k < BIN_4K) {
      midLogSum += lp;
      if (lp > midLogMax) midLogMax = lp;
    }
    const l = lp - norm;
    curLog[k] = l;
    const d = l - prevLog[k]!;
    if (d > 0) flux += d;
  }
  s.flux.push(first ? 0 : flux / (BINS - FIRST_BIN));
  s.contrast.push((10 / Math.LN10) * (lowLogMax - lowLogSum / (BIN_400 - BIN_200)));
  // A band with nothing in it (its strongest bin 40 dB or more under the frame's) has no valleys to fill.
  s.midContrast.push(midLogMax > log(peak + 1e-12) - MID_SILENT ? (10 / Math.LN10) * (midLogMax - midLogSum / (BIN_4K - BIN_1K)) : NaN);
  const bins = BINS - FIRST_BIN;
  s.fullFlatness.push(sum > 0 ? exp(fullLogSum / bins) / (sum / bins) : 0);
  s.partials.push(partialsOf(mags, row, sqrt(bandPeak), sqrt(peak)));
}

/**
 * Local maxima of PARTIALS_LO … PARTIALS_HI in the row within PARTIALS_FLOOR (amplitude) of the
 * band's strongest bin (`bandPeak`), and within PARTIALS_SILENT of the row's strongest from 30 Hz
 * (`rowPeak`): a band that holds only the leakage of louder sounds elsewhere counts none.
 */
function partialsOf(mags: Float32Array, row: number, bandPeak: number, rowPeak: number): number {
  const floor = Math.max(PARTIALS_FLOOR * bandPeak, PARTIALS_SILENT * rowPeak);
  let count = 0;
  for (let k = PARTIALS_LO; k < PARTIALS_HI; k++) {
    const m = mags[row + k]!;
    if (m > floor && m > mags[row + k - 1]! && m >= mags[row + k + 1]!) count++;
  }
  return count;
}

/** Share of blocks below half the mean power of the second around them. */
function lowEnergyRatio(power: Float64Array, span: number): number {
  let low = 0;
  for (let start = 0; start < power.length; start += span) {
    const end = Math.min(power.length, start + span);
    let m = 0;
    for (let i = start; i < end; i++) m += power[i]!;
    m /= end - start;
    for (let i = start; i < end; i++) if (power[i]! < 0.5 * m) low++;
  }
  return power.length > 0 ? low / power.length : 0;
}

/** Root mean square of the residual of x[from … from + n) around its least-squares line. */
function detrendedSquares(x: Float64Array, from: number, n: number): number {
  // Centred abscissa: Σ i = 0, so the slope and the mean come apart.
  let sy = 0;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    const c = i - (n - 1) / 2;
    sy += x[from + i]!;
    sxy += c * x[from + i]!;
    sxx += c * c;
  }
  const mean = sy / n;
  const slope = sxy / sxx;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (x[from + i]! - mean - slope * (i - (n - 1) / 2)) ** 2;
  return ss;
}

/**
 * Detrended fluctuation analysis (Peng et al. 1994) of the block levels: the integrated profile
 * of the levels (dB, floored 60 dB under the loud ones, mean removed) is cut into windows of
 * DFA_SHORT and of DFA_LONG blocks, each less its own line; the exponent is the slope of
 * log(RMS residual) against log(window): 0.5 for levels that are uncorrelated from block to block,
 * 1 for 1/f-like swells, 1.5 for a random walk.
 */
function levelSmoothness(blockDb: Float64Array, loud: number): number {
  const n = blockDb.length;
  if (n < 2 * DFA_LONG) return 0;
  let m = 0;
  for (let i = 0; i < n; i++) m += Math.max(blockDb[i]!, loud - 60);
  m /= n;
  const profile = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) profile[i] = acc += Math.max(blockDb[i]!, loud - 60) - m;
  const fluctuation = (size: number): number => {
    let ss = 0;
    let count = 0;
    for (let from = 0; from + size <= n; from += size) {
      ss += detrendedSquares(profile, from, size);
      count += size;
    }
    return sqrt(ss / count);
  };
  const short = fluctuation(DFA_SHORT);
  const long = fluctuation(DFA_LONG);
  return short > 0 && long > 0 ? log(long / short) / log(DFA_LONG / DFA_SHORT) : 0;
}

/**
 * The spectrum of `n` values from `from` on, their mean removed and a Hann window over them
 * (its period `period`: n - 1 symmetric, n periodic), zero-padded to the FFT's size in `buffer`,
 * into `out` (interleaved re/im).
 */
function windowedTransform(fft: FFT, buffer: Float64Array, out: Float64Array, values: ArrayLike<number>, from: number, n: number, period: number): void {
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[from + i]!;
  mean /= n;
  buffer.fill(0);
  for (let i = 0; i < n; i++) buffer[i] = (values[from + i]! - mean) * (0.5 - 0.5 * cos((2 * PI * i) / period));
  fft.realTransform(out, buffer);
}

/** Measures the statistics of one window; holds the modulation FFT, so an engine keeps one. */
export class TimbreMeter {
  private readonly fft = new FFT(MODULATION_SIZE);
  private readonly out = new Float64Array(MODULATION_SIZE * 2);
  private readonly env = new Float64Array(MODULATION_SIZE);
  private readonly segmentFft = new FFT(FLUCTUATION_SEGMENT);
  private readonly segment = new Float64Array(FLUCTUATION_SEGMENT);
  private readonly segmentOut = new Float64Array(FLUCTUATION_SEGMENT * 2);

  measure(spec: Spectrogram): TimbreStats {
    const series: FrameSeries = { db: [], centroid: [], rolloff: [], flatness: [], fullFlatness: [], flux: [], contrast: [], midContrast: [], partials: [], energy: new Float64Array(4) };
    let prevLog = new Float64Array(BINS);
    let curLog = new Float64Array(BINS);
    for (let f = 0; f < spec.frames; f += 4) {
      measureFrame(spec.mags, f, prevLog, curLog, f === 0, series);
      [prevLog, curLog] = [curLog, prevLog];
    }
    const loudFrame = percentile(series.db, 0.9);
    const audible = series.db.map((d, i) => (d > loudFrame - AUDIBLE_DB ? i : -1)).filter((i) => i >= 0);
    const pick = (values: number[]) => audible.map((i) => values[i]!);
    const quietest = [...audible].sort((a, b) => series.db[a]! - series.db[b]!).slice(0, Math.max(1, Math.floor(audible.length / 5)));
    const blockDb = spec.blockPower.map((p) => 10 * log10(p + 1e-12));
    const loud = percentile(blockDb, 0.9);
    const modulation = this.modulation(blockDb);
    const [low, high, total, mid] = series.energy;
    return {
      centroid: meanOf(pick(series.centroid)),
      centroidVariation: variation(pick(series.centroid)),
      rolloff: meanOf(pick(series.rolloff)),
      flatness: meanOf(pick(series.flatness)),
      highFrequencyRatio: total! > 0 ? high! / total! : 0,
      lowFrequencyRatio: total! > 0 ? low! / total! : 0,
      midFrequencyRatio: total! > 0 ? mid! / total! : 0,
      lowContrast: meanOf(pick(series.contrast)),
      midContrast: finiteMean(pick(series.midContrast)),
      levelSmoothness: levelSmoothness(blockDb, loud),
      partials: meanOf(pick(series.partials)),
      spectralFlux: meanOf(pick(series.flux)),
      zcr: meanOf(Array.from(spec.blockCrossings)),
      lowEnergyRatio: lowEnergyRatio(spec.blockPower, Math.round(FRAMES_PER_SECOND)),
      pauseRatio: blockDb.filter((d) => d < loud - 30).length / Math.max(1, blockDb.length),
      floorDb: Math.min(0, percentile(blockDb, 0.1) - loud),
      floorFlatness: meanOf(quietest.map((i) => series.fullFlatness[i] ?? 0)),
      syllabicModulation: modulation.syllabic,
      modulationPeakiness: modulation.peakiness,
      modulationCentroid: this.modulationCentroid(spec),
      blockDb,
    };
  }

  /** TimbreStats.modulationCentroid: the bands' levels on every frame, their segments' modulation spectra summed. */
  private modulationCentroid(spec: Spectrogram): number {
    const { frames, mags } = spec;
    if (frames < 16) return NaN;
    const bands = FLUCTUATION_EDGES.length - 1;
    const levels = new Float64Array(bands * frames);
    let top = -Infinity;
    for (let f = 0; f < frames; f++) {
      const row = f * BINS;
      for (let b = 0; b < bands; b++) {
        let p = 0;
        for (let k = FLUCTUATION_EDGES[b]!; k < FLUCTUATION_EDGES[b + 1]!; k++) p += mags[row + k]! * mags[row + k]!;
        const db = 10 * log10(p + 1e-12);
        levels[b * frames + f] = db;
        if (db > top) top = db;
      }
    }
    const floor = top - FLUCTUATION_RANGE_DB;
    for (let i = 0; i < levels.length; i++) if (levels[i]! < floor) levels[i] = floor;
    const length = Math.min(FLUCTUATION_SEGMENT, frames);
    const spectrum = new Float64Array(FLUCTUATION_SEGMENT / 2 + 1);
    for (let b = 0; b < bands; b++) {
      for (let start = 0; start + length <= frames; start += FLUCTUATION_HOP) {
        windowedTransform(this.segmentFft, this.segment, this.segmentOut, levels, b * frames + start, length, length);
        for (let k = 1; k < spectrum.length; k++) spectrum[k]! += sqrt(this.segmentOut[2 * k]! ** 2 + this.segmentOut[2 * k + 1]! ** 2);
      }
    }
    const hz = FRAMES_PER_SECOND / FLUCTUATION_SEGMENT;
    let weighted = 0;
    let total = 0;
    for (let k = Math.ceil(0.3 / hz); k * hz < 16 && k < spectrum.length; k++) {
      weighted += k * hz * spectrum[k]!;
      total += spectrum[k]!;
    }
    return total > 0 ? weighted / total : NaN;
  }

  /**
   * Modulation spectrum of the block levels (dB, floored 50 dB under the peak so that pauses
   * count as dips, mean removed, Hann-windowed): its share in 2.5-8 Hz and its peakiness.
   */
  private modulation(blockDb: Float64Array): { syllabic: number; peakiness: number } {
    const n = Math.min(MODULATION_SIZE, blockDb.length);
    if (n < 16) return { syllabic: 0, peakiness: 0 };
    const top = percentile(blockDb, 0.95);
    const floored = blockDb.subarray(0, n).map((d) => Math.max(d, top - 50));
    windowedTransform(this.fft, this.env, this.out, floored, 0, n, n - 1);
    const hz = FRAMES_PER_SECOND / MODULATION_SIZE;
    let total = 0;
    let band = 0;
    let peak = 0;
    let count = 0;
    for (let k = Math.ceil(0.5 / hz); k <= Math.floor(16 / hz); k++) {
      const p = this.out[2 * k]! ** 2 + this.out[2 * k + 1]! ** 2;
      total += p;
      count++;
      peak = Math.max(peak, p);
      if (k * hz >= 2.5 && k * hz <= 8) band += p;
    }
    if (!(total > 0)) return { syllabic: 0, peakiness: 0 };
    return { syllabic: band / total, peakiness: peak / (total / count) };
  }
}
