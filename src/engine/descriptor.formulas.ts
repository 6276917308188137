import type { Mood } from '../core/types';
import type { HarmonyColour } from './tonal.colour';
import type { SpectralShape } from './timbre.shape';
import type { TimbreStats } from './timbre.stats';
import type { VoiceStats } from './timbre.voice';
import { logistic } from './logistic';
import { VALENCE_SIGNAL, signalValenceInputs } from './valence';

/**
 * The 0–1 descriptors and moods, each a documented formula over measurements (docs/FEATURES.md
 * gives each one's meaning, formula, range and what a listener should expect). No trained model
 * runs here. The moods, danceability, energy, arousal, instrumentalness and acousticness are
 * weighted sums of named features (FEATURES below, each a ramp of one measurement), their
 * weights fitted by least squares to what Essentia's trained models say of the same clips (`npm
 * run bench:descriptors`, BENCHMARKS.md): the formulas are held to the models, they do not
 * contain them. Valence is fitted on people's labels instead (valence.ts).
 */
export interface DescriptorInputs {
  /** Integrated loudness of the window, LUFS. */
  loudness: number;
  /** Spread of the window's short-term loudness (400 ms blocks), LU: p90 - p10. */
  loudnessRange: number;
  timbre: Omit<TimbreStats, 'blockDb'>;
  tempo: number;
  /** The level choice's own probability (RhythmResult.levelProbability), not the calibrated tempo confidence. */
  tempoConfidence: number;
  /** Onsets per second. */
  onsetRate: number;
  /**
   * Mean onset strength of 150 Hz-2 kHz (the onset envelope's mid range, rhythm.onsets.ts: the
   * positive change of the log band magnitudes, summed over its bands): how hard and how often
   * chords, stabs, snare bodies and struck notes hit.
   */
  midOnsetStrength: number;
  /** The onset envelope's autocorrelation at the beat period, 0-1. */
  pulseClarity: number;
  /** How noise-like the spectrum above 2 kHz is at the beats (mean flatness, ramp 0.05-0.3; engine.ts), 0-1: drums playing the beat. */
  beatPercussion: number;
  /** 1 major, 0 minor. */
  mode: number;
  modeConfidence: number;
  /** How clearly the window is in one key (key profile correlation), 0–1. */
  keyStrength: number;
  /** Spread of the sections' loudness, LU: how much the window changes. */
  sectionLoudnessSpread: number;
  /** Held partials of the voice's band and how they wobble (timbre.voice.ts). */
  voice: VoiceStats;
  /** The share of major chords and the harmony's dissonance (tonal.colour.ts). */
  harmony: HarmonyColour;
  /** The spectral envelope's shape: cepstral coefficients and octave-band contrast (timbre.shape.ts). */
  shape: SpectralShape;
  /**
   * The window's 255 statistics the signal path's sound embedding is made of (sound.embedding.ts,
   * SOUND_FEATURE_NAMES), set by the engine after the descriptors (it reads them): kept beside the
   * formulas' inputs for the benchmarks that fit the embedding (bench:similarity).
   */
  sound?: number[];
}

export interface Descriptors {
  energy: number;
  danceability: number;
  liveness: number;
  speechiness: number;
  instrumentalness: number;
  acousticness: number;
  valence: number;
  arousal: number;
  approachability: number;
  engagement: number;
  mood: Mood;
}

/** Linear ramp: 0 at `lo`, 1 at `hi` (either order), clamped; 0 for a missing measurement. */
export function ramp(x: number, lo: number, hi: number): number {
  if (!Number.isFinite(x)) return 0;
  const t = (x - lo) / (hi - lo);
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

export function clamp01(x: number): number {
  return Number.isFinite(x) ? (x < 0 ? 0 : x > 1 ? 1 : x) : 0;
}

/** Rounds to 3 decimals: more digits than that would claim a precision these formulas lack. */
function r3(x: number): number {
  return Math.round(clamp01(x) * 1000) / 1000;
}

/** 1 at 120 BPM, falling off by octave distance: ~0.5 at 85 and 170 BPM. */
export function tempoComfort(tempo: number): number {
  if (!(tempo > 0)) return 0;
  const octaves = Math.log2(tempo / 120);
  return Math.exp(-(octaves * octaves) / (2 * 0.3 * 0.3));
}

/**
 * Speech evidence: pauses between phrases (blocks > 30 dB under the loud ones: music sustains,
 * even between drum hits), blocks well under their second's mean power, an envelope with no
 * dominant periodicity, and voiced/unvoiced alternation of the spectral centroid; all of it
 * discounted by how clearly the onsets repeat at a steady pulse (speech has none; a drum
 * machine alone has pauses and alternating timbres too, and a strong pulse).
 */
export function speechiness(t: DescriptorInputs['timbre'], pulseClarity: number): number {
  const pauses = ramp(t.pauseRatio, 0.02, 0.2);
  const lowEnergy = ramp(t.lowEnergyRatio, 0.3, 0.55);
  const alternation = ramp(t.centroidVariation, 0.6, 1.2);
  const irregular = ramp(Math.log(Math.max(1e-6, t.modulationPeakiness)), Math.log(40), Math.log(10));
  const syllables = ramp(t.syllabicModulation, 0.2, 0.5);
  const steady = ramp(pulseClarity, 0.3, 0.55);
  const evidence = 0.3 * pauses + 0.2 * lowEnergy + 0.2 * irregular + 0.15 * syllables + 0.15 * alternation * Math.max(pauses, lowEnergy);
  return clamp01(1.15 * evidence * (1 - steady));
}

/**
 * The features the fitted formulas weigh, each 0–1: a ramp of one measurement between values
 * that span the corpora's range (docs/FEATURES.md names each).
 */
export function descriptorFeatures(m: DescriptorInputs, speech: number): Record<Feature, number> {
  const t = m.timbre;
  return {
    // Up to -5 LUFS: the loudest masters of rock, metal and club music reach -8 to -5 LUFS, and
    // a ramp that stopped at -8 read them all alike.
    loud: ramp(m.loudness, -32, -5),
    compressed: 1 - ramp(m.loudnessRange, 3, 15),
    busy: ramp(t.spectralFlux, 0.4, 1.4),
    dense: ramp(m.onsetRate, 1, 6),
    // Distortion and noise fill the spectrum between the partials (flatness of 500 Hz-8 kHz).
    harsh: ramp(t.flatness, 0.02, 0.15),
    bright: ramp(t.rolloff, 300, 3000),
    air: ramp(t.highFrequencyRatio, 0.002, 0.08),
    bass: ramp(t.lowFrequencyRatio, 0.05, 0.6),
    mids: ramp(t.midFrequencyRatio, 0.05, 0.75),
    clear: ramp(t.lowContrast, 10, 30),
    // Distortion's grit where it bites, 1-4 kHz, under the cymbals: the valleys between partials filled.
    grit: ramp(t.midContrast, 40, 15),
    smooth: ramp(t.levelSmoothness, 0.5, 1.5),
    // The bands' levels flicker fast (dense drums, tremolo, fast figures) rather than swell.
    restless: ramp(t.modulationCentroid, 3.9, 5.6),
    stabs: ramp(m.midOnsetStrength, 1, 9),
    rich: ramp(t.partials, 4, 16),
    fast: ramp(m.tempo, 70, 170),
    comfort: tempoComfort(m.tempo),
    steady: clamp01(m.tempoConfidence),
    pulse: clamp01(m.pulseClarity),
    drums: clamp01(m.beatPercussion),
    major: m.mode === 1 ? 0.5 + 0.5 * clamp01(m.modeConfidence) : 0.5 - 0.5 * clamp01(m.modeConfidence),
    keyed: clamp01(m.keyStrength),
    sung: ramp(m.voice.vocalFrames, 0.03, 0.35),
    held: clamp01(m.voice.heldFrames),
    speech,
    // The harmony's colour (tonal.colour.ts): the share of major chords, and how rough the
    // sounding pitch classes are together (its 5th-95th percentiles on the 4Q songs: 0.25-0.42).
    majorChords: clamp01(m.harmony.majorChords),
    tense: ramp(m.harmony.dissonance, 0.25, 0.42),
  };
}

export const FEATURE_NAMES = [
  'loud', 'compressed', 'busy', 'dense', 'harsh', 'bright', 'air', 'bass', 'mids', 'clear', 'grit', 'smooth', 'restless', 'stabs', 'rich', 'fast', 'comfort', 'steady', 'pulse', 'drums', 'major', 'keyed', 'sung', 'held', 'speech', 'majorChords', 'tense',
] as const;
export type Feature = (typeof FEATURE_NAMES)[number];

/** The descriptors given by a fitted formula. */
export const FITTED = ['energy', 'danceability', 'arousal', 'happy', 'sad', 'relaxed', 'aggressive', 'instrumentalness', 'acousticness'] as const;
export type Fitted = (typeof FITTED)[number];

/**
 * A fitted formula: bias + Σ weight × feature, brought into 0–1 by softClamp (or, `hard`, by
 * clamping: for a designed formula whose ends mean something, instrumentalness' 1).
 */
export interface Formula {
  bias: number;
  weights: Partial<Record<Feature, number>>;
  hard?: boolean;
}

/**
 * 0–1 without ties at the ends: the value itself from 0.1 to 0.9, and beyond, tails that
 * approach 0 and 1 without reaching them (0.1·e^((v − 0.1)/0.1) below, its mirror above; the
 * slope is continuous at 0.1 and 0.9). A clamp would give every track past an end the same
 * value, and lose their order: music louder than the corpora the weights were fitted on would
 * all read energy 1.
 */
export function softClamp(v: number): number {
  if (!Number.isFinite(v)) return 0;
  if (v < 0.1) return 0.1 * Math.exp((v - 0.1) / 0.1);
  if (v > 0.9) return 1 - 0.1 * Math.exp((0.9 - v) / 0.1);
  return v;
}

/**
 * The shipped formulas: weights fitted on six corpora, the three benchmark corpora and three of
 * the game-soundtrack corpora that `npm run bench:game-music` gathers, scores, games and arcade
 * (its fourth, adventure, is kept out of every fit; `npm run bench:descriptors` with all six, its
 * "coefficients fitted on all corpora"; BENCHMARKS.md, "Engine 21"). Energy, arousal and
 * acousticness are stretched so that the corpora's 5th–95th percentiles span 0.1–0.9 (room at
 * both ends for music quieter or louder than the corpora hold);
 * instrumentalness is designed, not fitted (the corpora hold almost no singing).
 */
export const FORMULAS: Readonly<Record<Fitted, Formula>> = {
  energy: { bias: -0.389, weights: { loud: 0.963, dense: 0.208, grit: 0.296, bright: 0.053, air: 0.135, mids: -0.225 } },
  danceability: { bias: 0.223, weights: { drums: 0.203, pulse: 0.044, stabs: 0.569, mids: -0.361, smooth: -0.198, loud: 0.491, held: -0.144 } },
  arousal: { bias: -0.133, weights: { loud: 0.363, grit: 0.272, fast: 0.067, dense: 0.221, bright: 0.138, restless: 0.239, mids: -0.229 } },
  happy: { bias: -0.61, weights: { major: 0.079, fast: 0.026, loud: 0.175, drums: 0.056, pulse: 0.234, keyed: 0.302, stabs: 0.681, rich: 0.336 } },
  sad: { bias: 1.245, weights: { major: -0.088, fast: -0.133, loud: -0.27, dense: -0.134, bright: -0.166, harsh: -0.135, smooth: 0.266, restless: -0.219 } },
  relaxed: { bias: 0.927, weights: { loud: -0.214, fast: -0.008, busy: -0.029, compressed: -0.112, harsh: -0.151, bright: -0.289, clear: 0.328 } },
  aggressive: { bias: -0.282, weights: { grit: 0.262, loud: 0.336, dense: 0.199, bright: 0.046, fast: 0.054, drums: -0.058, air: 0.143, restless: 0.222, mids: -0.22 } },
  instrumentalness: { bias: 1, weights: { speech: -1.6, sung: -0.85 }, hard: true },
  acousticness: { bias: 0.95, weights: { harsh: -0.077, loud: -0.811, bright: -0.134, air: -0.034, drums: 0.004, busy: 0.094, held: 0.399, clear: 0.215, restless: -0.238 } },
};

/** The formula's weighted sum, before its clamp: bias + Σ weight · feature. */
export function formulaSum(f: Formula, x: Readonly<Record<Feature, number>>): number {
  let v = f.bias;
  for (const [name, w] of Object.entries(f.weights) as Array<[Feature, number]>) v += w * x[name];
  return v;
}

export function applyFormula(f: Formula, x: Readonly<Record<Feature, number>>): number {
  const v = formulaSum(f, x);
  return f.hard ? clamp01(v) : softClamp(v);
}

/** The signal valence model's inputs for a window's measurements, as computeDescriptors builds them (valence.ts). */
export function valenceInputs(m: DescriptorInputs): Record<string, number> {
  const x = descriptorFeatures(m, speechiness(m.timbre, m.pulseClarity));
  return signalValenceInputs(x, m.shape, applyFormula(FORMULAS.arousal, x));
}

export function computeDescriptors(m: DescriptorInputs, formulas: Readonly<Record<Fitted, Formula>> = FORMULAS): Descriptors {
  const t = m.timbre;
  const speech = speechiness(t, m.pulseClarity);
  const x = descriptorFeatures(m, speech);
  const v = (name: Fitted): number => applyFormula(formulas[name], x);

  // Noise between the notes (room, audience) beyond what the texture itself carries (distortion).
  const liveness = ramp(t.floorFlatness - 0.25 * t.flatness, 0.01, 0.06);
  const danceability = v('danceability');
  const arousal = v('arousal');
  const happy = v('happy');
  const sad = v('sad');
  // Positiveness as people judge it: the logistic model fitted on people's quadrant labels (valence.ts).
  const valence = logistic(VALENCE_SIGNAL, signalValenceInputs(x, m.shape, arousal));

  const approachability = clamp01(
    0.3 * x.keyed + 0.25 * x.steady + 0.2 * x.comfort + 0.15 * (1 - x.harsh) + 0.1 * (1 - speech),
  );
  const variety = ramp(m.sectionLoudnessSpread, 0.5, 4);
  const engagement = clamp01(0.35 * danceability + 0.3 * arousal + 0.2 * variety + 0.15 * x.steady);

  return {
    energy: r3(v('energy')),
    danceability: r3(danceability),
    liveness: r3(liveness),
    speechiness: r3(speech),
    instrumentalness: r3(v('instrumentalness')),
    acousticness: r3(v('acousticness')),
    valence: r3(valence),
    arousal: r3(arousal),
    approachability: r3(approachability),
    engagement: r3(engagement),
    mood: { happy: r3(happy), sad: r3(sad), relaxed: r3(v('relaxed')), aggressive: r3(v('aggressive')) },
  };
}
