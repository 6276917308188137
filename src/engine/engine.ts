import type { AudioFeatures, Section } from '../core/types';
import { type DescriptorInputs, computeDescriptors, ramp } from './descriptor.formulas';
import { SUB_BLOCK_SECONDS, integratedLoudness, loudnessRange } from './loudness';
import { type RhythmResult, analyseRhythm } from './rhythm';
import { onsetEnvelopes } from './rhythm.onsets';
import { segmentsOf } from './segments';
import { BINS, BIN_HZ, FRAMES_PER_SECOND, type Spectrogram, Stft } from './signal.stft';
import { TimbreMeter, meanOf } from './timbre.stats';
import { measureVoice } from './timbre.voice';
import { barIntervals, beatIntervals, sectionBoundaries } from './timeline';
import { analyseTonal, keyOfSums } from './tonal';
import type { WholeTrack } from './track.whole';
import { harmonyColour } from './tonal.colour';
import { spectralShape } from './timbre.shape';
import { chromaOf, type Chroma } from './tonal.chroma';
import { ONSET_ACF_SECONDS, signalEmbedding, soundFeatures } from './sound.embedding';
import { cepstralFrames } from './sound.frames';
import { ENGINE_ID } from './version';
import { ANALYSIS_RATE } from './window';

// Local bindings: under Jest's vm sandbox a global lookup per bin is several times slower.
const { exp, log, sqrt } = Math;

/** The analysis window of a file, as decode.ts delivers it. */
export interface WindowAudio {
  /** Mono, 44.1 kHz. */
  samples: Float32Array;
  offsetSeconds: number;
  /** The whole file's length. */
  durationSeconds: number;
  /** Integrated loudness of the window, LUFS. */
  loudness: number;
  /** K-weighted power per 100 ms of the window. */
  subBlockPowers: Float64Array;
  /** What the key and the tempo read of the whole file when the window is only part of it: the track's key is read there, its tempo's level weighed by it. */
  wholeTrack?: WholeTrack;
}

export interface EngineOptions {
  /** Analysed window of files longer than 45 s, seconds: the worker decodes that much (decode.ts) for this engine. */
  windowSeconds: number;
}

/** Analyses one decoded window into every field of AudioFeatures. */
export interface Engine {
  readonly options: EngineOptions;
  analyseWindow(audio: WindowAudio): AudioFeatures;
  /** The same, with the measurements the descriptor formulas were given (for calibrating them: bench/descriptors.ts). */
  measureWindow(audio: WindowAudio): { features: AudioFeatures; inputs: DescriptorInputs };
}

/** Sections shorter than this get the window's key instead of one measured on too little audio. */
const MIN_KEYED_SECTION_SECONDS = 4;
/** Loudness reported for a section with nothing above the absolute gate. */
const SILENT_LUFS = -70;

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Mean and standard deviation of an envelope. */
function levelOf(x: Float64Array): [number, number] {
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < x.length; i++) {
    sum += x[i]!;
    squares += x[i]! * x[i]!;
  }
  const n = Math.max(1, x.length);
  const mean = sum / n;
  return [mean, sqrt(Math.max(0, squares / n - mean * mean))];
}

/** The autocorrelation of x less its mean at each of `lags` (frames), over its value at 0 (0 for a constant x). */
function autocorrelationAt(x: Float64Array, lags: readonly number[]): number[] {
  const [mean] = levelOf(x);
  const at = (lag: number): number => {
    let s = 0;
    for (let i = lag; i < x.length; i++) s += (x[i]! - mean) * (x[i - lag]! - mean);
    return x.length > lag ? s / (x.length - lag) : 0;
  };
  const zero = at(0);
  return lags.map((lag) => (zero > 0 ? at(lag) / zero : 0));
}

/** The mean of a part of the chroma over the window's frames (C first). */
function meanRow(chroma: Chroma, part: 'frames' | 'sustained' | 'bass'): number[] {
  const rows = chroma[part];
  const out = new Array<number>(12).fill(0);
  for (let f = 0; f < chroma.count; f++) for (let k = 0; k < 12; k++) out[k]! += rows[f * 12 + k]!;
  return out.map((v) => v / Math.max(1, chroma.count));
}

/** Tempo of the beats inside [from, to) and how regular they are there (1 - spread of the periods). */
function localTempo(beats: readonly number[], from: number, to: number, confidence: number): { tempo: number; confidence: number } {
  const inside = beats.filter((b) => b >= from && b < to);
  const periods = inside.slice(1).map((b, i) => b - inside[i]!);
  if (periods.length < 2) return { tempo: 0, confidence: 0 };
  const period = median(periods);
  const spread = sqrt(periods.reduce((s, p) => s + (p - period) ** 2, 0) / periods.length) / period;
  return { tempo: round(60 / period, 1), confidence: round(confidence * Math.max(0, 1 - 4 * spread), 3) };
}

const NOISE_LO = Math.round(2000 / BIN_HZ);
const NOISE_HI = BINS - 2;

/** Spectral flatness (geometric over arithmetic mean power) of frame f between 2 and 11 kHz. */
function highFlatness(mags: Float32Array, f: number): number {
  let logSum = 0;
  let sum = 0;
  for (let k = NOISE_LO; k <= NOISE_HI; k++) {
    const p = mags[f * BINS + k]! ** 2;
    logSum += log(p + 1e-20);
    sum += p;
  }
  const n = NOISE_HI - NOISE_LO + 1;
  return sum > 0 ? exp(logSum / n) / (sum / n) : 0;
}

/**
 * Drums playing the beat: how noise-like the spectrum above 2 kHz is on the beats (snare, hats
 * and cymbals are noise; the partials of notes are peaks), as the mean flatness over the beat
 * frames, mapped from 0.05 (notes alone) to 0.3.
 */
function beatPercussion(spec: Spectrogram, beatFrames: readonly number[]): number {
  const frames = beatFrames.filter((b) => b >= 0 && b < spec.frames);
  if (frames.length === 0) return 0;
  let sum = 0;
  for (const f of frames) sum += highFlatness(spec.mags, f);
  return ramp(sum / frames.length, 0.05, 0.3);
}

class AnalysisEngine implements Engine {
  private readonly stft = new Stft();
  private readonly timbre = new TimbreMeter();

  constructor(readonly options: EngineOptions) {}

  analyseWindow(audio: WindowAudio): AudioFeatures {
    return this.measureWindow(audio).features;
  }

  measureWindow(audio: WindowAudio): { features: AudioFeatures; inputs: DescriptorInputs } {
    const { offsetSeconds } = audio;
    const windowSeconds = audio.samples.length / ANALYSIS_RATE;
    const spec = this.stft.spectrogram(this.stft.halfRate(audio.samples));
    const envelopes = onsetEnvelopes(spec);
    const chroma = chromaOf(spec);
    const tonal = analyseTonal(chroma);
    // The track's key: of the whole file when the window is part of it, else the window's.
    const trackKey = audio.wholeTrack ? keyOfSums(audio.wholeTrack.sustained, audio.wholeTrack.bass) : tonal;
    const rhythm: RhythmResult = analyseRhythm(envelopes, chroma, tonal.tonality, audio.wholeTrack?.tempi);
    const { blockDb, ...timbre } = this.timbre.measure(spec);
    const fps = FRAMES_PER_SECOND;

    const boundaries = sectionBoundaries(blockDb, fps, rhythm.downbeats, windowSeconds);
    const starts = [{ at: 0, confidence: 1 }, ...boundaries];
    const sections: Section[] = starts.map((b, i) => {
      const end = starts[i + 1]?.at ?? windowSeconds;
      const lufs = integratedLoudness(audio.subBlockPowers, Math.round(b.at / SUB_BLOCK_SECONDS), Math.round(end / SUB_BLOCK_SECONDS));
      const local = localTempo(rhythm.beats, b.at, end, rhythm.tempoConfidence);
      const key = starts.length > 1 && end - b.at >= MIN_KEYED_SECTION_SECONDS ? analyseTonal(chroma, Math.floor(b.at * fps), Math.ceil(end * fps)) : trackKey;
      return {
        start: round(offsetSeconds + b.at, 3),
        duration: round(end - b.at, 3),
        confidence: round(b.confidence, 3),
        loudness: round(Number.isFinite(lufs) ? lufs : SILENT_LUFS, 2),
        tempo: local.tempo,
        tempoConfidence: local.confidence,
        key: key.key,
        keyConfidence: round(key.keyConfidence, 3),
        mode: key.mode,
        modeConfidence: round(key.modeConfidence, 3),
      };
    });
    const sectionLoudness = sections.map((s) => s.loudness);
    const meanLoudness = sectionLoudness.reduce((a, b) => a + b, 0) / sectionLoudness.length;
    const spread = sqrt(sectionLoudness.reduce((s, l) => s + (l - meanLoudness) ** 2, 0) / sectionLoudness.length);

    const beatFrames = rhythm.beats.map((b) => Math.round(b * fps));
    const inputs: DescriptorInputs = {
      loudness: audio.loudness,
      loudnessRange: loudnessRange(audio.subBlockPowers),
      timbre,
      tempo: rhythm.tempo,
      tempoConfidence: rhythm.levelProbability,
      onsetRate: rhythm.onsetRate,
      midOnsetStrength: meanOf(envelopes.mid),
      pulseClarity: rhythm.pulseClarity,
      beatPercussion: beatPercussion(spec, beatFrames),
      // The profile reading's mode, as the formulas were fitted on it (tonal.key.ts, profileReading).
      mode: tonal.profileMode,
      modeConfidence: tonal.profileModeConfidence,
      keyStrength: tonal.strength,
      sectionLoudnessSpread: spread,
      voice: measureVoice(spec),
      harmony: harmonyColour(chroma),
      shape: spectralShape(spec),
    };
    const descriptors = computeDescriptors(inputs);
    inputs.sound = soundFeatures({
      timbre,
      shape: inputs.shape,
      tempo: rhythm.tempo,
      tempoConfidence: rhythm.levelProbability,
      onsetRate: rhythm.onsetRate,
      midOnsetStrength: inputs.midOnsetStrength,
      pulseClarity: rhythm.pulseClarity,
      beatPercussion: inputs.beatPercussion,
      onsetLevels: { low: levelOf(envelopes.low), mid: levelOf(envelopes.mid), high: levelOf(envelopes.high), all: levelOf(envelopes.all) },
      onsetAcf: autocorrelationAt(envelopes.all, ONSET_ACF_SECONDS.map((sec) => Math.round(sec * fps))),
      mode: inputs.mode,
      modeConfidence: inputs.modeConfidence,
      keyStrength: inputs.keyStrength,
      majorChords: inputs.harmony.majorChords,
      dissonance: inputs.harmony.dissonance,
      key: tonal.key,
      chroma: { frames: meanRow(chroma, 'frames'), sustained: meanRow(chroma, 'sustained'), bass: meanRow(chroma, 'bass') },
      loudness: audio.loudness,
      loudnessRange: inputs.loudnessRange,
      sectionLoudnessSpread: spread,
      vocalFrames: inputs.voice.vocalFrames,
      heldFrames: inputs.voice.heldFrames,
      descriptors: [
        descriptors.energy, descriptors.danceability, descriptors.liveness, descriptors.speechiness, descriptors.instrumentalness, descriptors.acousticness,
        descriptors.valence, descriptors.arousal, descriptors.mood.happy, descriptors.mood.sad, descriptors.mood.relaxed, descriptors.mood.aggressive,
      ],
    });
    const embedding = signalEmbedding(inputs.sound, cepstralFrames(spec));

    const features: AudioFeatures = {
      durationMs: Math.round(audio.durationSeconds * 1000),
      tempo: round(rhythm.tempo, 2),
      key: trackKey.key,
      mode: trackKey.mode,
      timeSignature: rhythm.timeSignature,
      loudness: round(audio.loudness, 2),
      ...descriptors,
      confidence: {
        tempo: round(rhythm.tempoConfidence, 3),
        key: round(trackKey.keyConfidence, 3),
        mode: round(trackKey.modeConfidence, 3),
        timeSignature: round(rhythm.timeSignatureConfidence, 3),
      },
      timeline: {
        beats: beatIntervals(rhythm.beats, rhythm.beatConfidences, offsetSeconds, windowSeconds),
        bars: barIntervals(
          rhythm.beats,
          rhythm.beatConfidences,
          rhythm.downbeats,
          rhythm.timeSignature,
          rhythm.timeSignatureConfidence,
          offsetSeconds,
          windowSeconds,
        ),
        sections,
        segments: segmentsOf({ spec, chroma, allFlux: envelopes.all, fps, offsetSeconds }),
      },
      tempoAlternatives: rhythm.tempoAlternatives,
      tuningHz: tuningHz(chroma.tuning),
      ...(embedding ? { embeddings: [embedding] } : {}),
      engine: ENGINE_ID,
    };
    return { features, inputs };
  }
}

/** A4's frequency for a deviation from A = 440 Hz in semitones (the chroma's tuning), 0.1 Hz steps. */
export function tuningHz(semitones: number): number {
  return round(440 * 2 ** (semitones / 12), 1);
}

/** An engine: a value holding its own FFT plans and buffers (a worker thread holds one). */
export function createEngine(options: EngineOptions): Engine {
  return new AnalysisEngine(options);
}
