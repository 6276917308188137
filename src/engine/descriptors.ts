import type { Mood } from '../core/types';
import type { EssentiaMeasurements, SpectralMeasurements } from './measurements';
import { clamp01 } from './signal';

/**
 * The 0–1 descriptors and moods, each a documented formula over measurements (docs/FEATURES.md
 * gives the reasoning, what was checked and the limits). No trained model runs here: these are
 * heuristics built to order tracks the way listeners would, not calibrated probabilities.
 */
export interface DescriptorInputs {
  /** Integrated loudness of the window, LUFS. */
  loudness: number;
  spectral: Omit<SpectralMeasurements, 'frameDb' | 'frameRate' | 'frameChroma' | 'spectralFrameRate'>;
  essentia: EssentiaMeasurements;
  tempo: number;
  tempoConfidence: number;
  /** 1 major, 0 minor. */
  mode: number;
  modeConfidence: number;
  /** How clearly the audio has one key (the key profile correlation), 0–1. */
  keyStrength: number;
  /** Spread of the sections' loudness, LU: how much the window changes. */
  sectionLoudnessSpread: number;
  /** How clearly the onsets repeat at a steady pulse, 0-1 (rhythm's `pulseClarity`). */
  pulseClarity: number;
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

/** Linear ramp: 0 at `lo`, 1 at `hi` (either order), clamped. */
export function ramp(x: number, lo: number, hi: number): number {
  if (!Number.isFinite(x)) return 0;
  const t = (x - lo) / (hi - lo);
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/** Rounds to 3 decimals: more digits than that would claim a precision these formulas lack. */
function r3(x: number): number {
  return Math.round(clamp01(x) * 1000) / 1000;
}

/** 1 at 120 BPM, falling off by octave distance: ~0.5 at 85 and 170 BPM. */
function tempoComfort(tempo: number): number {
  if (!(tempo > 0)) return 0;
  const octaves = Math.log2(tempo / 120);
  return Math.exp(-(octaves * octaves) / (2 * 0.3 * 0.3));
}

/**
 * Speech evidence: pauses between phrases (level > 30 dB under the loud frames: music sustains,
 * even between drum hits), frames well under their second's mean power, an envelope with no
 * dominant periodicity, and voiced/unvoiced alternation of the spectral centroid; all of it
 * discounted by how clearly the onsets repeat at a steady pulse. Speech has no such pulse
 * (`pulseClarity` ~0.2); a drum machine alone has one (0.45-0.9) and also has silences between
 * dry hits and alternating kick and hat timbres, which the other cues alone took for speech.
 */
export function speechiness(s: DescriptorInputs['spectral'], pulseClarity: number): number {
  const pauses = ramp(s.pauseRatio, 0.02, 0.2);
  const lowEnergy = ramp(s.lowEnergyRatio, 0.3, 0.55);
  const alternation = ramp(s.centroidVariation, 0.9, 1.5);
  const irregular = ramp(Math.log(Math.max(1e-6, s.modulationPeakiness)), Math.log(60), Math.log(15));
  const steady = ramp(pulseClarity, 0.25, 0.5);
  // Drums against soft tones alternate the centroid too: it counts only where the level drops.
  const evidence = 0.35 * pauses + 0.25 * lowEnergy + 0.2 * irregular + 0.2 * alternation * Math.max(pauses, lowEnergy);
  return clamp01(evidence * (1 - steady));
}

export function computeDescriptors(m: DescriptorInputs): Descriptors {
  const s = m.spectral;
  const loud = ramp(m.loudness, -30, -6);
  const busy = ramp(s.spectralFlux, 0.3, 1);
  const bright = ramp(s.rolloff, 500, 6000);
  const noisy = ramp(s.flatness, 0.005, 0.12);
  const harsh = clamp01(0.5 * noisy + 0.5 * ramp(s.highFrequencyRatio, 0.01, 0.15));
  const compressed = 1 - ramp(m.essentia.dynamicComplexity, 1, 8);
  const fast = ramp(m.tempo, 60, 170);

  const energy = clamp01(0.4 * loud + 0.2 * busy + 0.15 * bright + 0.1 * harsh + 0.15 * compressed);

  const pulse = ramp(m.essentia.danceability, 0.8, 3);
  const danceability = clamp01(
    0.5 * pulse + 0.3 * clamp01(m.tempoConfidence) + 0.2 * tempoComfort(m.tempo),
  );

  const speech = speechiness(s, m.pulseClarity);

  const liveness = clamp01(0.75 * ramp(s.floorFlatness, 0.015, 0.2) + 0.25 * ramp(s.floorDb, -30, -8) * ramp(s.floorFlatness, 0.01, 0.05));

  // Spoken words are the only vocals measured; sung vocals are not detected (see FEATURES.md).
  const instrumentalness = clamp01(1 - 1.6 * speech);

  const major = m.mode === 1 ? 0.5 + 0.5 * clamp01(m.modeConfidence) : 0.5 - 0.5 * clamp01(m.modeConfidence);
  const valence = clamp01(0.45 * major + 0.25 * fast + 0.2 * bright + 0.1 * loud);

  const arousal = clamp01(0.55 * energy + 0.25 * fast + 0.2 * ramp(s.spectralFlux, 0.3, 1.2));

  const happy = clamp01(valence * (0.4 + 0.6 * arousal) * 1.25);
  const sad = clamp01((1 - valence) * (1 - 0.7 * arousal) * 1.25);
  const aggressive = clamp01(arousal * (0.35 * (1 - valence) + 0.35 * harsh + 0.3 * loud) * 1.6);
  const relaxed = clamp01((1 - arousal) * (1 - 0.6 * harsh) * (0.6 + 0.4 * valence));

  const approachability = clamp01(
    0.3 * clamp01(m.keyStrength) +
      0.25 * clamp01(m.tempoConfidence) +
      0.2 * tempoComfort(m.tempo) +
      0.15 * (1 - harsh) +
      0.1 * (1 - speech),
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
