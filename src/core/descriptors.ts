/*
 * The descriptor registry: every 0–1 descriptor and mood an analysis carries, named once. The
 * surfaces derive from it: the contract schema and the OpenAPI document, the REST and GraphQL
 * analysis objects, the stored columns (added when missing), browse's filters and orderings, and
 * the similarity distance. Adding a descriptor is an entry here and its measurement in the engine.
 * Each description is the sentence docs/FEATURES.md gives for it (a test holds them equal).
 */

export interface Descriptor {
  /** Its field in the analysis object (`energy`), or in the analysis's `mood` object (`happy`). */
  readonly name: string;
  /** `descriptor`: a top-level field; `mood`: a field of `mood`. */
  readonly group: 'descriptor' | 'mood';
  /** What it measures, in one sentence (GraphQL, OpenAPI, docs/FEATURES.md). */
  readonly description: string;
  /** The closed range of its values. */
  readonly range: { readonly min: number; readonly max: number };
  /** Whether browse filters by ranges of it and orders by it (its column then has an index). */
  readonly browse: boolean;
  /** Its weight in the similarity distance (0: not part of it). */
  readonly similarityWeight: number;
}

const UNIT = { min: 0, max: 1 } as const;

export const DESCRIPTORS = [
  { name: 'energy', group: 'descriptor', description: 'Intensity and activity: loud, dense, bright and distorted music reads high, quiet sparse music low.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'liveness', group: 'descriptor', description: 'Likelihood that the recording is of a live performance (audience noise, room sound).', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'danceability', group: 'descriptor', description: 'Suitability for dancing: a steady, clear beat carried by drums at a danceable tempo.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'instrumentalness', group: 'descriptor', description: 'Likelihood that the track has no vocals.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'speechiness', group: 'descriptor', description: 'Presence of spoken words: above 0.66 probably speech alone, below 0.33 music.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'valence', group: 'descriptor', description: 'Musical positivity: higher sounds happier, cheerful or euphoric; lower sadder, tense or angry.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'arousal', group: 'descriptor', description: 'Emotional intensity or stimulation: how exciting rather than calming the track is.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'approachability', group: 'descriptor', description: 'How accessible the track is to a general listener: conventional, consonant, steady.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'engagement', group: 'descriptor', description: 'Predicted ability to hold attention: variation and development over the track.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'happy', group: 'mood', description: 'Predicted level of happiness.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'sad', group: 'mood', description: 'Predicted level of sadness.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'relaxed', group: 'mood', description: 'Predicted level of calmness or relaxation.', range: UNIT, browse: true, similarityWeight: 1 },
  { name: 'aggressive', group: 'mood', description: 'Predicted level of aggression or intensity.', range: UNIT, browse: true, similarityWeight: 1 },
] as const satisfies readonly Descriptor[];

type Entry = (typeof DESCRIPTORS)[number];
/** The top-level descriptors' names (`energy` …). */
export type DescriptorName = Extract<Entry, { group: 'descriptor' }>['name'];
/** The moods' names (`happy` …). */
export type MoodName = Extract<Entry, { group: 'mood' }>['name'];

/** The values of the top-level descriptors, by name. */
export type DescriptorValues = Record<DescriptorName, number>;
/** Mood scores, by name. */
export type MoodValues = Record<MoodName, number>;

/** The stored column of a descriptor: its name, or `mood_<name>` for a mood. */
export function columnOf(d: Pick<Descriptor, 'name' | 'group'>): string {
  return d.group === 'mood' ? `mood_${d.name}` : d.name;
}

/** The name of its browse ordering (`ENERGY`, `MOOD_HAPPY`). */
export function orderNameOf(d: Pick<Descriptor, 'name' | 'group'>): string {
  return columnOf(d).toUpperCase();
}

/** Its path in the analysis object, for messages (`energy`, `mood.happy`). */
export function pathOf(d: Pick<Descriptor, 'name' | 'group'>): string {
  return d.group === 'mood' ? `mood.${d.name}` : d.name;
}

/** The registry's top-level descriptors, in order. */
export const TOP_LEVEL: readonly Descriptor[] = DESCRIPTORS.filter((d) => d.group === 'descriptor');
/** The registry's moods, in order. */
export const MOODS: readonly Descriptor[] = DESCRIPTORS.filter((d) => d.group === 'mood');

/** The value of a descriptor in features shaped as the analysis object (top-level fields and `mood`). */
export function valueOf(features: { mood: Readonly<Record<string, number>> } & object, d: Pick<Descriptor, 'name' | 'group'>): number | undefined {
  const value = d.group === 'mood' ? features.mood[d.name] : (features as Record<string, unknown>)[d.name];
  return typeof value === 'number' ? value : undefined;
}

/** The registry's top-level descriptors of an object that has them (and more), in the registry's order. */
export function pickDescriptors(from: DescriptorValues): DescriptorValues {
  const out = {} as DescriptorValues;
  for (const d of TOP_LEVEL) out[d.name as DescriptorName] = from[d.name as DescriptorName];
  return out;
}
