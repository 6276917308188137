import type { Mood } from '../core/types';
import type { TimbreStats } from './timbre.stats';

/**
 * The 0–1 descriptors and moods, each a documented formula over measurements (docs/FEATURES.md
 * gives each one's meaning, formula, range and what a listener should expect). No trained model
 * runs here: these are built to order tracks the way listeners would, not calibrated
 * probabilities.
 */
export interface DescriptorInputs {
  /** Integrated loudness of the window, LUFS. */
  loudness: number;
  /** Spread of the window's short-term loudness (400 ms blocks), LU: p90 - p10. */
  loudnessRange: number;
  timbre: Omit<TimbreStats, 'blockDb'>;
  tempo: number;
  tempoConfidence: number;
  /** Onsets per second. */
  onsetRate: number;
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
}

export interface Descriptors {
  energy: number;
  danceability: number;
  liveness: number;
  speechiness: number;
  instrumentalness: number;
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

export function computeDescriptors(m: DescriptorInputs): Descriptors {
  const t = m.timbre;
  const loud = ramp(m.loudness, -32, -8);
  const busy = ramp(t.spectralFlux, 0.4, 1.4);
  const dense = ramp(m.onsetRate, 1, 6);
  // Distortion and noise fill the spectrum between the partials (flatness of 500 Hz-8 kHz).
  const harsh = ramp(t.flatness, 0.02, 0.15);
  const bright = ramp(t.rolloff, 300, 3000);
  const compressed = 1 - ramp(m.loudnessRange, 3, 15);
  const fast = ramp(m.tempo, 70, 170);
  const pulse = clamp01(m.pulseClarity);
  const drums = clamp01(m.beatPercussion);

  const energy = clamp01(0.45 * loud + 0.2 * harsh + 0.15 * dense + 0.1 * compressed + 0.1 * busy);

  const danceability = clamp01(0.35 * drums + 0.3 * pulse + 0.2 * tempoComfort(m.tempo) + 0.15 * clamp01(m.tempoConfidence));

  const speech = speechiness(t, m.pulseClarity);
  // Noise between the notes (room, audience) beyond what the texture itself carries (distortion).
  const liveness = ramp(t.floorFlatness - 0.25 * t.flatness, 0.01, 0.06);
  // Spoken words are the only voice measured; sung vocals are not detected (docs/FEATURES.md).
  const instrumentalness = clamp01(1 - 1.6 * speech);

  const major = m.mode === 1 ? 0.5 + 0.5 * clamp01(m.modeConfidence) : 0.5 - 0.5 * clamp01(m.modeConfidence);
  // Mode, tempo and brightness carry valence; harshness takes it away (distorted music reads tense).
  const valence = clamp01(0.5 * major + 0.2 * fast + 0.15 * bright + 0.15 * (1 - harsh) - 0.25 * harsh * loud);
  const arousal = clamp01(0.5 * energy + 0.2 * fast + 0.15 * dense + 0.15 * drums);

  const happy = clamp01(valence * (0.3 + 0.7 * arousal) * (1 - 0.6 * harsh) * 1.3);
  const sad = clamp01((1 - valence) * (1 - arousal) * 1.5);
  const aggressive = clamp01(arousal * (0.45 * harsh + 0.25 * loud + 0.15 * dense + 0.15 * (1 - valence)) * 1.6);
  const relaxed = clamp01((1 - arousal) * (1 - harsh) * 1.4);

  const approachability = clamp01(
    0.3 * clamp01(m.keyStrength) + 0.25 * clamp01(m.tempoConfidence) + 0.2 * tempoComfort(m.tempo) + 0.15 * (1 - harsh) + 0.1 * (1 - speech),
  );
  const variety = ramp(m.sectionLoudnessSpread, 0.5, 4);
  const engagement = clamp01(0.35 * danceability + 0.3 * arousal + 0.2 * variety + 0.15 * clamp01(m.tempoConfidence));

  return {
    energy: r3(energy),
    danceability: r3(danceability),
    liveness: r3(liveness),
    speechiness: r3(speech),
    instrumentalness: r3(instrumentalness),
    valence: r3(valence),
    arousal: r3(arousal),
    approachability: r3(approachability),
    engagement: r3(engagement),
    mood: { happy: r3(happy), sad: r3(sad), relaxed: r3(relaxed), aggressive: r3(aggressive) },
  };
}
