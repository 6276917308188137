import type { Essentia } from 'essentia.js';
import type { AudioFeatures, Section } from '../core/types';
import { computeDescriptors } from './descriptors';
import { SUB_BLOCK_SECONDS, integratedLoudness } from './loudness';
import { keyOfChroma, measureSpectrum, measureWithEssentia } from './measurements';
import type { RhythmResult } from './rhythm';
import { barIntervals, beatIntervals, sectionBoundaries } from './timeline';
import type { TonalContext, TonalResult } from './tonal';
import { decimateByMean, median } from './signal';
import { ENGINE_ID } from './version';
import { ANALYSIS_RATE } from './window';

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
}

/** The rhythm and tonal measurements (src/engine/rhythm.ts, tonal.ts), injected so tests can count calls. */
export interface Analyzers {
  analyzeRhythm(essentia: Essentia, signal: Float32Array, sampleRate: 44100): RhythmResult;
  analyzeTonal(essentia: Essentia, signal: Float32Array, sampleRate: 44100, context?: TonalContext): TonalResult;
}

/** Sections shorter than this get the window's key instead of one measured on too little audio. */
const MIN_KEYED_SECTION_SECONDS = 4;

/** Loudness reported for a section with nothing above the absolute gate. */
const SILENT_LUFS = -70;

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** decimate4's output buffer, reused from clip to clip (essentia copies it into its own heap). */
let decimated = new Float32Array(0);

/**
 * Decimates by 4 (mean of 4 samples: a crude low-pass that suffices for level envelopes) for
 * essentia's Danceability and DynamicComplexity, which only look at the level over time and cost
 * several times more at 44.1 kHz.
 */
function decimate4(signal: Float32Array): Float32Array {
  const length = Math.floor(signal.length / 4);
  if (decimated.length < length) decimated = new Float32Array(length);
  return decimateByMean(signal, 4, decimated);
}

/** Tempo of the beats inside [from, to) and how regular they are there (1 - spread of the periods). */
function localTempo(beats: readonly number[], from: number, to: number, confidence: number): { tempo: number; confidence: number } {
  const inside = beats.filter((b) => b >= from && b < to);
  const periods = inside.slice(1).map((b, i) => b - inside[i]!);
  if (periods.length < 2) return { tempo: 0, confidence: 0 };
  const period = median(periods);
  const spread = Math.sqrt(periods.reduce((s, p) => s + (p - period) ** 2, 0) / periods.length) / period;
  return { tempo: round(60 / period, 1), confidence: round(confidence * Math.max(0, 1 - 4 * spread), 3) };
}

interface SectionKey {
  key: number;
  mode: 0 | 1;
  keyConfidence: number;
  modeConfidence: number;
}

/** Key of the section [from, to) (seconds) from the spectral frames' chroma. */
function sectionKey(essentia: Essentia, frameChroma: Float32Array, frameRate: number, from: number, to: number): SectionKey {
  const chroma = new Float64Array(12);
  const first = Math.floor(from * frameRate);
  const last = Math.min(frameChroma.length / 12, Math.ceil(to * frameRate));
  for (let f = first; f < last; f++) for (let pc = 0; pc < 12; pc++) chroma[pc]! += frameChroma[f * 12 + pc]!;
  const k = keyOfChroma(essentia, chroma);
  return { key: k.key, mode: k.mode, keyConfidence: k.strength, modeConfidence: k.strength };
}

/** Every field of AudioFeatures from one decoded window. */
export function featuresFromWindow(essentia: Essentia, audio: WindowAudio, analyzers: Analyzers): AudioFeatures {
  const { samples, offsetSeconds } = audio;
  const windowSeconds = samples.length / ANALYSIS_RATE;
  const rhythm = analyzers.analyzeRhythm(essentia, samples, ANALYSIS_RATE);
  // The beats let the key stage read the bass at phrase starts (src/engine/tonal.ts).
  const tonal = analyzers.analyzeTonal(essentia, samples, ANALYSIS_RATE, {
    beats: rhythm.beats,
    timeSignature: rhythm.timeSignature,
    fromStart: offsetSeconds === 0,
  });
  const { frameDb, frameRate, frameChroma, spectralFrameRate, ...spectral } = measureSpectrum(samples, ANALYSIS_RATE);
  const essentiaMeasures = measureWithEssentia(essentia, decimate4(samples), ANALYSIS_RATE / 4);

  const windowKey: SectionKey = { key: tonal.key, mode: tonal.mode, keyConfidence: tonal.keyConfidence, modeConfidence: tonal.modeConfidence };
  const boundaries = sectionBoundaries(frameDb, frameRate, rhythm.downbeats, windowSeconds);
  const starts = [{ at: 0, confidence: 1 }, ...boundaries];
  const sections: Section[] = starts.map((b, i) => {
    const end = starts[i + 1]?.at ?? windowSeconds;
    const fromBlock = Math.round(b.at / SUB_BLOCK_SECONDS);
    const toBlock = Math.round(end / SUB_BLOCK_SECONDS);
    const lufs = integratedLoudness(audio.subBlockPowers, fromBlock, toBlock);
    const local = localTempo(rhythm.beats, b.at, end, rhythm.tempoConfidence);
    const key =
      starts.length > 1 && end - b.at >= MIN_KEYED_SECTION_SECONDS
        ? sectionKey(essentia, frameChroma, spectralFrameRate, b.at, end)
        : windowKey;
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
  const spread = Math.sqrt(sectionLoudness.reduce((s, l) => s + (l - meanLoudness) ** 2, 0) / sectionLoudness.length);

  const descriptors = computeDescriptors({
    loudness: audio.loudness,
    spectral,
    essentia: essentiaMeasures,
    tempo: rhythm.tempo,
    tempoConfidence: rhythm.tempoConfidence,
    mode: tonal.mode,
    modeConfidence: tonal.modeConfidence,
    keyStrength: tonal.strength,
    sectionLoudnessSpread: spread,
    pulseClarity: rhythm.pulseClarity,
  });

  return {
    durationMs: Math.round(audio.durationSeconds * 1000),
    tempo: round(rhythm.tempo, 2),
    key: tonal.key,
    mode: tonal.mode,
    timeSignature: rhythm.timeSignature,
    loudness: round(audio.loudness, 2),
    ...descriptors,
    confidence: {
      tempo: round(rhythm.tempoConfidence, 3),
      key: round(tonal.keyConfidence, 3),
      mode: round(tonal.modeConfidence, 3),
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
    },
    engine: ENGINE_ID,
  };
}
