/*
 * The descriptors and moods an analysis carries, in the order the API lists them. Adding a
 * descriptor is an entry here and its measurement in the engine (src/engine/descriptors.ts);
 * every surface derives from this list through src/core/descriptors.ts. Each description is the
 * sentence docs/FEATURES.md gives for it (a test holds them equal).
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
  /** A typical value, for the examples of the API's documents. */
  readonly example: number;
}

const UNIT = { min: 0, max: 1 } as const;

export const DESCRIPTORS = [
  { name: 'energy', group: 'descriptor', description: 'Perceived intensity: loud, dense, distorted and compressed music reads high, quiet sparse music low.', range: UNIT, browse: true, similarityWeight: 1, example: 0.61 },
  { name: 'liveness', group: 'descriptor', description: 'Noise and reverberation between notes, as an audience and a room leave them: the likelihood of a live recording.', range: UNIT, browse: true, similarityWeight: 1, example: 0.12 },
  { name: 'danceability', group: 'descriptor', description: 'A steady, clear pulse carried by drums at a tempo one moves to.', range: UNIT, browse: true, similarityWeight: 1, example: 0.55 },
  { name: 'instrumentalness', group: 'descriptor', description: 'Absence of spoken voice (sung vocals are not detected and read as instrumental).', range: UNIT, browse: true, similarityWeight: 1, example: 0.3 },
  { name: 'speechiness', group: 'descriptor', description: 'Presence of spoken words: above 0.66 probably speech alone, below 0.33 music.', range: UNIT, browse: true, similarityWeight: 1, example: 0.05 },
  { name: 'valence', group: 'descriptor', description: 'Musical positiveness: major, quick, bright and clean music reads high; minor, slow, dark or distorted music low.', range: UNIT, browse: true, similarityWeight: 1, example: 0.48 },
  { name: 'arousal', group: 'descriptor', description: 'Activation: follows energy, tempo, the density of onsets and drums on the beat.', range: UNIT, browse: true, similarityWeight: 1, example: 0.57 },
  { name: 'approachability', group: 'descriptor', description: 'How easy the track is to listen to: a clear key, a regular moderate beat, a clean sound.', range: UNIT, browse: true, similarityWeight: 1, example: 0.64 },
  { name: 'engagement', group: 'descriptor', description: 'How well the track may hold attention: a pulse that carries and a level that changes.', range: UNIT, browse: true, similarityWeight: 1, example: 0.58 },
  { name: 'happy', group: 'mood', description: 'Positive and active: bright major songs read high, distorted music low whatever its mode.', range: UNIT, browse: true, similarityWeight: 1, example: 0.41 },
  { name: 'sad', group: 'mood', description: 'Negative and calm: slow minor music reads high.', range: UNIT, browse: true, similarityWeight: 1, example: 0.33 },
  { name: 'relaxed', group: 'mood', description: 'Calm and clean: drumless calm music reads high, loud rock near 0.', range: UNIT, browse: true, similarityWeight: 1, example: 0.29 },
  { name: 'aggressive', group: 'mood', description: 'Active, harsh and loud: distorted rock and metal read near 1.', range: UNIT, browse: true, similarityWeight: 1, example: 0.22 },
] as const satisfies readonly Descriptor[];
