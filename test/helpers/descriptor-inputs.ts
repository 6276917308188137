import type { DescriptorInputs } from '../../src/engine/descriptor.formulas';

/**
 * A window's measurements as the engine hands them to the formulas, of a plausible mix (a
 * steady beat, a clear major key, no voice): the descriptor tests change one of them at a time.
 */
export const BASE_INPUTS: DescriptorInputs = {
  loudness: -14,
  loudnessRange: 6,
  timbre: {
    centroid: 2000, centroidVariation: 0.4, rolloff: 4000, flatness: 0.08, highFrequencyRatio: 0.05, lowFrequencyRatio: 0.2,
    spectralFlux: 1.2, zcr: 0.1, lowEnergyRatio: 0.3, pauseRatio: 0, floorDb: -15, floorFlatness: 0.1,
    syllabicModulation: 0.2, modulationPeakiness: 40, midFrequencyRatio: 0.35, lowContrast: 18, midContrast: 25, levelSmoothness: 0.9, partials: 10, modulationCentroid: 4.6,
  },
  tempo: 120, tempoConfidence: 0.8, onsetRate: 4, midOnsetStrength: 3.5, pulseClarity: 0.6, beatPercussion: 0.6,
  mode: 1, modeConfidence: 0.8, keyStrength: 0.7, sectionLoudnessSpread: 1, voice: { vocalFrames: 0.02, heldFrames: 0.6 },
  harmony: { majorChords: 0.6, dissonance: 0.3 },
  shape: {
    mean: new Array<number>(13).fill(0),
    spread: new Array<number>(13).fill(1),
    covariance: Array.from({ length: 169 }, (_, i) => (i % 14 === 0 ? 1 : 0)),
    deltaSpread: new Array<number>(13).fill(0.5),
    contrast: new Array<number>(7).fill(1),
    valley: new Array<number>(7).fill(-3),
  },
};
