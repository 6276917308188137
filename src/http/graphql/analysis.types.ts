import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { toContractAnalysis } from '../../analysis/contract';
import type { AnalysisOutcome } from '../../analysis/analysis.service';
import type { StoredAnalysis } from '../../core/types';

/*
 * The contract's analysis object as GraphQL types. Field names are the REST contract's, so a
 * client moves between REST and GraphQL without remapping. Resolvers hand plain objects to
 * these types; every field is read by GraphQL's default resolver (no per-field work).
 */

@ObjectType({ description: 'Mood scores, each in [0, 1].' })
export class Mood {
  @Field(() => Float, { description: 'Predicted level of happiness.' })
  happy!: number;

  @Field(() => Float, { description: 'Predicted level of sadness.' })
  sad!: number;

  @Field(() => Float, { description: 'Predicted level of calmness or relaxation.' })
  relaxed!: number;

  @Field(() => Float, { description: 'Predicted level of aggression or intensity.' })
  aggressive!: number;
}

@ObjectType({ description: 'The artist and title again, as the contract duplicates them.' })
export class TrackMeta {
  @Field(() => String)
  artist!: string;

  @Field(() => String)
  track!: string;
}

@ObjectType({ description: 'How sure the engine is of each musical estimate, in [0, 1].' })
export class Confidence {
  @Field(() => Float)
  tempo!: number;

  @Field(() => Float)
  key!: number;

  @Field(() => Float)
  mode!: number;

  @Field(() => Float)
  timeSignature!: number;
}

@ObjectType({ description: 'Audio features of one track, computed from its audio (the REST analysis object, plus confidence).' })
export class TrackAnalysis {
  @Field(() => String, { description: 'Performing artist.' })
  artist!: string;

  @Field(() => String, { description: 'First 16 hex of sha256(lower(trim(artist)) + ":" + lower(trim(track))), after Unicode NFC.' })
  trackKey!: string;

  @Field(() => String, { description: 'Title of the song.' })
  trackName!: string;

  @Field(() => Int, { description: 'Duration in milliseconds.' })
  duration_ms!: number;

  @Field(() => Float, { description: 'Estimated tempo in beats per minute.' })
  tempo!: number;

  @Field(() => Int, { description: 'Pitch class 0–11 (0 = C, 9 = A).' })
  key!: number;

  @Field(() => String, { description: '"<note> <major|minor>", notes written C C# D D# E F F# G G# A A# B.' })
  keyString!: string;

  @Field(() => Int, { description: '1 = major, 0 = minor.' })
  mode!: number;

  @Field(() => Int, { description: 'Beats per measure: 4 means 4/4 time.' })
  timeSignature!: number;

  @Field(() => Float, { description: 'Intensity and activity. Higher means more energetic.' })
  energy!: number;

  @Field(() => Float, { description: 'Probability of live audience or live performance characteristics.' })
  liveness!: number;

  @Field(() => Float, { description: 'Suitability for dancing, based on rhythm, tempo and beat stability.' })
  danceability!: number;

  @Field(() => Float, { description: 'Likelihood of little or no vocals.' })
  instrumentalness!: number;

  @Field(() => Float, { description: 'Presence of spoken words or speech-like vocals.' })
  speechiness!: number;

  @Field(() => Float, { description: 'Musical positivity. Higher sounds happier.' })
  valence!: number;

  @Field(() => Float, { description: 'Emotional intensity or stimulation level.' })
  arousal!: number;

  @Field(() => Float, { description: 'How accessible the track is for listeners.' })
  approachability!: number;

  @Field(() => Float, { description: 'Predicted ability to retain listener attention.' })
  engagement!: number;

  @Field(() => Mood)
  mood!: Mood;

  @Field(() => TrackMeta)
  meta!: TrackMeta;

  @Field(() => Confidence, { description: 'Confidence of tempo, key, mode and timeSignature (GraphQL only).' })
  confidence!: Confidence;
}

export enum AnalysisState {
  DONE = 'DONE',
  QUEUED = 'QUEUED',
  PROCESSING = 'PROCESSING',
  UNKNOWN = 'UNKNOWN',
}

registerEnumType(AnalysisState, {
  name: 'AnalysisState',
  description: 'Where the analysis of a key stands.',
  valuesConfig: {
    DONE: { description: 'Stored: `analysis` holds it.' },
    QUEUED: { description: 'Waiting for a worker; ask again after `retryAfter` seconds.' },
    PROCESSING: { description: 'Being analysed; ask again after `retryAfter` seconds.' },
    UNKNOWN: { description: 'Neither stored nor being analysed: search for it, or ask `analysis` with artist and track.' },
  },
});

@ObjectType({ description: 'The state of one key’s analysis, without starting one (REST answers 202 with the same facts).' })
export class AnalysisStatus {
  @Field(() => String)
  trackKey!: string;

  @Field(() => AnalysisState)
  status!: AnalysisState;

  @Field(() => Int, { nullable: true, description: 'Jobs ahead of this one (0 while it is being processed); null unless QUEUED or PROCESSING.' })
  queuePosition!: number | null;

  @Field(() => Int, { nullable: true, description: 'Seconds after which asking again may find it done; null unless QUEUED or PROCESSING.' })
  retryAfter!: number | null;

  @Field(() => TrackAnalysis, { nullable: true, description: 'The analysis, when DONE.' })
  analysis!: TrackAnalysis | null;
}

/** The GraphQL analysis object of a stored analysis: the contract's fields plus confidences. */
export function trackAnalysisOf(stored: StoredAnalysis): TrackAnalysis {
  return { ...toContractAnalysis(stored), confidence: { ...stored.features.confidence } };
}

/** The AnalysisStatus of a key from the service's outcome (undefined: nothing known of it). */
export function analysisStatusOf(trackKey: string, outcome: AnalysisOutcome | undefined): AnalysisStatus {
  if (!outcome) return { trackKey, status: AnalysisState.UNKNOWN, queuePosition: null, retryAfter: null, analysis: null };
  if (outcome.status === 'done') {
    return { trackKey, status: AnalysisState.DONE, queuePosition: null, retryAfter: null, analysis: trackAnalysisOf(outcome.analysis) };
  }
  return {
    trackKey,
    status: outcome.status === 'queued' ? AnalysisState.QUEUED : AnalysisState.PROCESSING,
    queuePosition: outcome.queuePosition,
    retryAfter: outcome.retryAfterS,
    analysis: null,
  };
}
