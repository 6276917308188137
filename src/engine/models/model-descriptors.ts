import type { TagScore } from '../../core/types';
import type { MsdTag } from './model-files';
import type { ModelOutputs } from './runtime';
import { logistic } from '../logistic';
import { VALENCE_MODELS, modelValenceInputs } from '../valence';

/** The tagger's tags that say a voice sings. */
const VOCAL_TAGS: readonly MsdTag[] = ['female vocalists', 'female vocalist', 'male vocalists'];

/**
 * Instrumentalness from the MSD auto-tagger: the `instrumental` tag's share of it and the vocal
 * tags together. The tagger's probabilities are small on most music (a tag is one listener's
 * word, not a class), so their ratio, not 1 − a vocal tag, is what separates sung from not.
 */
export function instrumentalnessOf(tags: Readonly<Record<MsdTag, number>>): number {
  const vocal = VOCAL_TAGS.reduce((s, t) => s + tags[t], 0);
  const instrumental = tags.instrumental;
  return instrumental + vocal > 0 ? instrumental / (instrumental + vocal) : 0.5;
}

/** The descriptors the models decide, in the registry's names. */
export interface ModelDescriptors {
  mood: { happy: number; sad: number; relaxed: number; aggressive: number };
  /** The models' valence: the logistic model on their outputs fitted on people's labels (valence.ts). */
  valence: number;
  danceability: number;
  instrumentalness: number;
  /** The tagger's `acoustic` tag, for an acousticness built on it. */
  acoustic: number;
}

const round3 = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/** The tagger's tags with their probabilities (3 decimals), most probable first (ties in the tagger's order). */
export function tagScores(tags: Readonly<Record<MsdTag, number>>): TagScore[] {
  return (Object.entries(tags) as Array<[MsdTag, number]>)
    .map(([name, p]) => ({ name, probability: round3(p) }))
    .sort((a, b) => b.probability - a.probability);
}

export function modelDescriptors(out: ModelOutputs): ModelDescriptors {
  const c = out.classes;
  return {
    mood: { happy: round3(c.mood_happy), sad: round3(c.mood_sad), relaxed: round3(c.mood_relaxed), aggressive: round3(c.mood_aggressive) },
    valence: round3(logistic(VALENCE_MODELS, modelValenceInputs(c, out.tags))),
    danceability: round3(c.danceability),
    instrumentalness: round3(instrumentalnessOf(out.tags)),
    acoustic: round3(out.tags.acoustic),
  };
}
