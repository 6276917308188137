/*
 * The descriptors and moods an analysis carries, in the order the API lists them. Adding a
 * descriptor is an entry here and its measurement in the engine (src/engine/descriptor.formulas.ts);
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
  /**
   * For a descriptor added after analyses were stored: the engine's ALGORITHM_VERSION that first
   * measured it. Analyses made before it, and another server's records of the contract, may lack
   * it: GraphQL answers null, REST leaves the field out, OpenAPI marks it optional.
   */
  readonly since?: number;
}

const UNIT = { min: 0, max: 1 } as const;

export const DESCRIPTORS = [
  { name: 'energy', group: 'descriptor', description: 'Perceived intensity: loud, dense, distorted music reads high, quiet sparse music low.', range: UNIT, browse: true, similarityWeight: 1, example: 0.61 },
  { name: 'liveness', group: 'descriptor', description: 'Noise and reverberation between notes, as an audience and a room leave them: the likelihood of a live recording.', range: UNIT, browse: true, similarityWeight: 1, example: 0.12 },
  { name: 'danceability', group: 'descriptor', description: 'Hits that strike and a level that pulses rather than swells, energy in the bass and the treble rather than the mid-range, drums on the beat, a loud master and few held notes.', range: UNIT, browse: true, similarityWeight: 1, example: 0.55 },
  { name: 'instrumentalness', group: 'descriptor', description: 'Absence of voice: sung or spoken vocals lower it; above 0.5 probably instrumental.', range: UNIT, browse: true, similarityWeight: 1, example: 0.3 },
  { name: 'speechiness', group: 'descriptor', description: 'Presence of spoken words: above 0.66 probably speech alone, below 0.33 music.', range: UNIT, browse: true, similarityWeight: 1, example: 0.05 },
  { name: 'acousticness', group: 'descriptor', description: 'Confidence that the track is acoustic: quiet, clean, held notes read high; loud, distorted, electronic sound low.', range: UNIT, browse: true, similarityWeight: 1, example: 0.25, since: 11 },
  { name: 'valence', group: 'descriptor', description: 'Musical positiveness as listeners judge it: the probability that people would place the track among happy, excited, content or serene music rather than angry, tense, sad or gloomy music (fitted on people\'s labels).', range: UNIT, browse: true, similarityWeight: 1, example: 0.48 },
  { name: 'arousal', group: 'descriptor', description: 'Activation: loudness, distortion\'s grit, the density of onsets, a level that flickers fast, tempo, and energy in the bass and the treble rather than the mid-range.', range: UNIT, browse: true, similarityWeight: 1, example: 0.57 },
  { name: 'approachability', group: 'descriptor', description: 'How easy the track is to listen to: a clear key, a regular moderate beat, a clean sound.', range: UNIT, browse: true, similarityWeight: 1, example: 0.64 },
  { name: 'engagement', group: 'descriptor', description: 'How well the track may hold attention: a pulse that carries and a level that changes.', range: UNIT, browse: true, similarityWeight: 1, example: 0.58 },
  { name: 'happy', group: 'mood', description: 'Positive and active: loud, rhythmic songs in a clear key whose chords and drums strike and whose arrangement sounds many notes at once read high, major more than minor; quiet, sparse music low.', range: UNIT, browse: true, similarityWeight: 1, example: 0.41 },
  { name: 'sad', group: 'mood', description: 'Negative and calm: slow, quiet, sparse music whose level swells and fades reads high, minor more than major.', range: UNIT, browse: true, similarityWeight: 1, example: 0.33 },
  { name: 'relaxed', group: 'mood', description: 'Calm: dark, quiet, dynamic music with clean notes reads high, bright loud compressed music low; distortion alone lowers it a little.', range: UNIT, browse: true, similarityWeight: 1, example: 0.29 },
  { name: 'aggressive', group: 'mood', description: 'Loud, dense, fast and harsh, its level flickering and its energy in the bass and the treble: metal and hard electronic music read high, quiet music near 0.', range: UNIT, browse: true, similarityWeight: 1, example: 0.22 },
] as const satisfies readonly Descriptor[];
