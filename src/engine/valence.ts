import { CLASSIFIERS, type ClassifierName, MSD_TAGS, type MsdTag } from './models/model-files';
import type { SpectralShape } from './timbre.shape';
import { type LogisticFormula } from './logistic';
import fitted from './valence.weights.json';

/*
 * Valence: how positive a track sounds, as people judge it (Russell's pleasant–unpleasant
 * axis), 0–1: the probability a logistic model gives that listeners would place the track in a
 * positive quadrant (happy, excited, content, serene) rather than a negative one (angry, tense,
 * sad, gloomy). Both models are fitted on people's labels, the quadrants of the 4Q audio emotion
 * dataset (Panda, Malheiro & Paiva, IEEE TAFFC 2018), by `npm run bench:moods -- --write`; their
 * weights are data (valence.weights.json) and docs/FEATURES.md lists them.
 *
 * The signal path weighs the descriptors' named features (descriptor.formulas.ts, the harmony's
 * colour of tonal.colour.ts among them), the spectral shape (timbre.shape.ts), and each of them
 * again times the track's arousal less 0.5: what
 * sounds positive in an energetic track (bright, major, regular) is not all of what does in a calm
 * one, and one set of weights for both halves reads a calm love song as sad as a furious one.
 * The models' path weighs what Essentia's models say: the five classifiers and the MSD
 * auto-tagger's 50 tags.
 */
/** The shipped fits (valence.weights.json). */
export const VALENCE_SIGNAL: LogisticFormula = fitted.signal;
export const VALENCE_MODELS: LogisticFormula = fitted.models;

/** The name of a signal input's interaction with arousal. */
export const byArousal = (name: string): string => `${name}×arousal`;

/**
 * The signal model's inputs: each named feature (0–1), the cepstral coefficients' means
 * (`mfcc0` … `mfcc12`) and spreads (`mfcc0sd` …), the octave bands' contrast (`contrast0` …
 * `contrast6`) and valley levels (`valley0` …; timbre.shape.ts), `arousal` (the arousal
 * descriptor less 0.5), and each of the others times it.
 */
export function signalValenceInputs(features: Readonly<Record<string, number>>, shape: SpectralShape, arousal: number): Record<string, number> {
  const a = arousal - 0.5;
  const own: Record<string, number> = { ...features };
  shape.mean.forEach((v, c) => (own[`mfcc${c}`] = v));
  shape.spread.forEach((v, c) => (own[`mfcc${c}sd`] = v));
  shape.contrast.forEach((v, b) => (own[`contrast${b}`] = v));
  shape.valley.forEach((v, b) => (own[`valley${b}`] = v));
  const row: Record<string, number> = { arousal: a };
  for (const [name, v] of Object.entries(own)) {
    row[name] = v;
    row[byArousal(name)] = a * v;
  }
  return row;
}

/** The models' inputs: the classifiers' probabilities (by their names) and the tagger's, `tag:<name>`. */
export function modelValenceInputs(classes: Readonly<Record<ClassifierName, number>>, tags: Readonly<Record<MsdTag, number>>): Record<string, number> {
  const row: Record<string, number> = {};
  for (const { name } of CLASSIFIERS) row[name] = classes[name];
  for (const t of MSD_TAGS) row[`tag:${t}`] = tags[t];
  return row;
}
