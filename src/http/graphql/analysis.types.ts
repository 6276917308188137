import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { toContractAnalysis } from '../../analysis/contract';
import { tatumsOf } from '../../analysis/spotify-analysis.shape';
import type { KeyStatus } from '../../analysis/analysis.service';
import { unreadSegments } from '../../analysis/store/store';
import { methodOf } from '../../core/analysis-method';
import { MOODS, TOP_LEVEL } from '../../core/descriptors';
import type { StoredAnalysis } from '../../core/types';
import { Node, globalId } from './node.types';

/*
 * The contract's analysis object as GraphQL types. Field names are the REST contract's, so a
 * client moves between REST and GraphQL without remapping. Resolvers hand plain objects to
 * these types; every field is read by GraphQL's default resolver (no per-field work).
 */

/** Mood scores: one field per mood of the descriptor registry (see describeDescriptors below). */
@ObjectType({ description: 'Mood scores, each in [0, 1].' })
export class Mood {}

@ObjectType({ description: 'The artist and title again, as the contract duplicates them.' })
export class TrackMeta {
  @Field(() => String, { description: 'The artist again.' })
  artist!: string;

  @Field(() => String, { description: 'The title again.' })
  track!: string;
}

@ObjectType({ description: 'How sure the engine is of each musical estimate, in [0, 1].' })
export class Confidence {
  @Field(() => Float, { description: 'Of the tempo: a calibrated probability that it is the beat listeners tap, within 4 % (docs/FEATURES.md, "Confidences").' })
  tempo!: number;

  @Field(() => Float, { description: 'Of the key: a calibrated probability that key and mode are both right (docs/FEATURES.md, "Confidences").' })
  key!: number;

  @Field(() => Float, { description: 'Of the mode (major against minor).' })
  mode!: number;

  @Field(() => Float, { description: 'Of the time signature (how clearly one bar length repeats).' })
  timeSignature!: number;
}

@ObjectType({ description: 'A span of the file, seconds from its start, with how sure the engine is of it.' })
export class TimeInterval {
  @Field(() => Float, { description: 'Seconds from the start of the file.' })
  start!: number;

  @Field(() => Float, { description: 'Seconds.' })
  duration!: number;

  @Field(() => Float, { description: 'In [0, 1].' })
  confidence!: number;
}

@ObjectType({ description: 'A section: a span of similar level, with its own loudness, tempo, key and mode.' })
export class Section {
  @Field(() => Float, { description: 'Seconds from the start of the file.' })
  start!: number;

  @Field(() => Float, { description: 'Seconds.' })
  duration!: number;

  @Field(() => Float, { description: 'How certain the boundary that starts it is, in [0, 1].' })
  confidence!: number;

  @Field(() => Float, { description: 'Integrated loudness of the section, LUFS.' })
  loudness!: number;

  @Field(() => Float, { description: 'Beats per minute in the section.' })
  tempo!: number;

  @Field(() => Float, { description: 'How sure the engine is of the section\'s tempo, in [0, 1].' })
  tempoConfidence!: number;

  @Field(() => Int, { description: 'Pitch class 0–11.' })
  key!: number;

  @Field(() => Float, { description: 'How sure the engine is of the section\'s key, in [0, 1].' })
  keyConfidence!: number;

  @Field(() => Int, { description: '1 = major, 0 = minor.' })
  mode!: number;

  @Field(() => Float, { description: 'How sure the engine is of the section\'s mode, in [0, 1].' })
  modeConfidence!: number;
}

@ObjectType({ description: 'A segment: from one onset to the next (docs/FEATURES.md, "Segments"); Spotify\'s audio-analysis segment in camelCase.' })
export class Segment {
  @Field(() => Float, { description: 'Seconds from the start of the file.' })
  start!: number;

  @Field(() => Float, { description: 'Seconds.' })
  duration!: number;

  @Field(() => Float, { description: 'How clearly an onset starts it, in [0, 1].' })
  confidence!: number;

  @Field(() => Float, { description: 'Level at its start, dBFS (floored at -60).' })
  loudnessStart!: number;

  @Field(() => Float, { description: 'Its loudest level, dBFS.' })
  loudnessMax!: number;

  @Field(() => Float, { description: 'Seconds from its start to its loudest level.' })
  loudnessMaxTime!: number;

  @Field(() => Float, { description: 'Level at its end, dBFS.' })
  loudnessEnd!: number;

  @Field(() => [Float], { description: '12 pitch-class strengths, C first, the strongest 1.' })
  pitches!: number[];

  @Field(() => [Float], { description: '12 mel-frequency cepstral coefficients (our own basis, docs/FEATURES.md "Segments").' })
  timbre!: number[];
}

@ObjectType({ description: 'A tempo the level choice weighed and did not choose.' })
export class TempoAlternative {
  @Field(() => Float, { description: 'Beats per minute.' })
  tempo!: number;

  @Field(() => Float, { description: 'Its probability of being the tapped level: what confidence.tempo leaves, shared in the proportions of the candidates\' scores (docs/FEATURES.md, "Tempo alternatives"), in [0, 1].' })
  confidence!: number;
}

@ObjectType({ description: 'The tempo counted within a BPM range: the most probable beat grid at its octave inside the range (docs/FEATURES.md, "A BPM range").' })
export class TempoInRange {
  @Field(() => Float, { description: 'Beats per minute, within the range (or, for a range narrower than an octave that holds none of the grid\'s octaves, the one nearest it); 0 when the analysis found no tempo.' })
  tempo!: number;

  @Field(() => Float, { description: 'The probability that the beats fall where a listener taps, at some octave: the summed probabilities of the grid\'s levels, in [0, 1].' })
  confidence!: number;

  @Field(() => [TempoAlternative], { description: 'The levels of the other beat grids (a 3:2 relative, mostly), most probable first.' })
  alternatives!: TempoAlternative[];
}

@ObjectType({ description: 'One of the MSD auto-tagger’s tags (msd-musicnn-1) and its probability.' })
export class TagScore {
  @Field(() => String, { description: 'The tag, as the tagger names it: a genre ("rock", "Hip-Hop"), an era ("80s"), a voice ("female vocalists"), an instrument ("guitar") or a mood ("Mellow").' })
  name!: string;

  @Field(() => Float, { description: 'The tagger’s probability of the tag, in [0, 1]. A tag is a listener’s word, not a class: most stay under 0.2 on most music.' })
  probability!: number;
}

@ObjectType({ description: 'Time-resolved analysis of the analysed window (docs/FEATURES.md, "Timeline"), times from the start of the file.' })
export class Timeline {
  @Field(() => [TimeInterval], { description: 'Every beat, in order: the pulse the tempo counts.' })
  beats!: TimeInterval[];

  @Field(() => [TimeInterval], { description: 'Every bar: timeSignature beats from a downbeat.' })
  bars!: TimeInterval[];

  @Field(() => [Section], { description: 'Spans of similar level, each with its own loudness, tempo, key and mode.' })
  sections!: Section[];

  @Field(() => [TimeInterval], { description: 'Every tatum: each beat halved (the engine does not measure the subdivision).' })
  tatums!: TimeInterval[];

  @Field(() => [Segment], { description: 'Onset-bounded segments; empty for analyses older than engine 11 and for those another server made.' })
  segments!: Segment[];
}

/** Extra cost of a timeline: a few hundred intervals. */
export const TIMELINE_COST = 10;

@ObjectType({
  implements: Node,
  description: 'Audio features of one track, computed from its audio (the REST analysis object, plus confidence, loudness and timeline).',
})
export class TrackAnalysis extends Node {
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

  @Field(() => Int, { description: 'Pitch class 0–11 (0 = C, 9 = A), of the whole file (docs/FEATURES.md, "Key and mode").' })
  key!: number;

  @Field(() => String, { description: '"<note> <major|minor>", notes written C C# D D# E F F# G G# A A# B.' })
  keyString!: string;

  @Field(() => Int, { description: '1 = major, 0 = minor.' })
  mode!: number;

  @Field(() => Int, { description: 'Beats per measure: 4 means 4/4 time.' })
  timeSignature!: number;

  @Field(() => Mood, { description: 'Mood scores, each in [0, 1].' })
  mood!: Mood;

  @Field(() => TrackMeta, { description: 'The artist and title again, as the contract duplicates them.' })
  meta!: TrackMeta;

  @Field(() => Confidence, { description: 'Confidence of tempo, key, mode and timeSignature (GraphQL only).' })
  confidence!: Confidence;

  @Field(() => Float, { description: 'Integrated loudness, LUFS (EBU R128) (GraphQL only).' })
  loudness!: number;

  @Field(() => Timeline, {
    description: 'Beats, bars, sections, tatums and segments (GraphQL; REST: GET /api/audio/analysis/{trackKey}/timeline and, in Spotify\'s shape, GET /v1/audio-analysis/{id}).',
    complexity: ({ childComplexity }) => TIMELINE_COST + childComplexity,
  })
  timeline!: Timeline;

  @Field(() => [TempoAlternative], {
    description: 'The tempi the level choice ranked next (half or double, mostly), most probable first; empty for analyses older than engine 11 (REST: tempoAlternatives on the analysis object).',
  })
  tempoAlternatives!: TempoAlternative[];

  @Field(() => Float, {
    nullable: true,
    description: 'The frequency the recording tunes A4 to, Hz, from its spectral peaks (440 in concert pitch; 432, 446…); null for analyses older than engine 23 and other servers\' (REST: tuningHz on the analysis object; /v1/audio-analysis: track.tuning_hz).',
  })
  tuningHz!: number | null;

  /** The tagger's tags, most probable first (empty for other methods): the `tags` field's source (descriptors.resolver.ts). */
  tags!: TagScore[];

  @Field(() => String, {
    description:
      'The engine build that made this analysis (`trackgraph-engine/<n>`, followed by ` models:<set>[/r<rank>][/p<patches>]` when trained models made its moods; `upstream:…` when another server did) (GraphQL; REST: the Trackgraph-Engine header).',
  })
  engine!: string;

  @Field(() => String, {
    description:
      'How the moods, valence, danceability and instrumentalness were made: `signal` (the engine\'s formulas), `models:<set>[/r<rank>][/p<patches>]` (Essentia\'s trained models, MODELS_DIR; `/r32`: their convolutions factorised at rank 32, `/p<n>`: over n patches per window) or `external` (another server) (GraphQL; REST: the Trackgraph-Analysis-Method header).',
  })
  method!: string;
}

/*
 * The registry's descriptors as fields of TrackAnalysis and Mood (Float, described as the
 * registry describes them), declared the way the decorators above declare the other fields.
 */
// A descriptor added since analyses were first stored (registry: `since`) is null on older ones.
for (const d of TOP_LEVEL) {
  Field(() => Float, { description: d.description, nullable: d.since !== undefined })(TrackAnalysis.prototype, d.name);
}
for (const d of MOODS) Field(() => Float, { description: d.description })(Mood.prototype, d.name);

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
  @Field(() => ID, { description: 'Global id: "AnalysisStatus:<trackKey>" (a client cache keeps one status per key and updates it as it is asked again).' })
  id!: string;

  @Field(() => String, { description: 'The key asked about (lower case).' })
  trackKey!: string;

  @Field(() => AnalysisState, { description: 'Where its analysis stands.' })
  status!: AnalysisState;

  @Field(() => Int, { nullable: true, description: 'Jobs ahead of this one (0 while it is being processed); null unless QUEUED or PROCESSING.' })
  queuePosition!: number | null;

  @Field(() => Int, { nullable: true, description: 'Seconds after which asking again may find it done; null unless QUEUED or PROCESSING.' })
  retryAfter!: number | null;

  @Field(() => TrackAnalysis, { nullable: true, description: 'The analysis, when DONE.' })
  analysis!: TrackAnalysis | null;
}

/** The GraphQL analysis object of a stored analysis: the contract's fields plus confidences, loudness and timeline. */
export function trackAnalysisOf(stored: StoredAnalysis): TrackAnalysis {
  return {
    id: globalId('TrackAnalysis', stored.trackKey),
    ...toContractAnalysis(stored),
    confidence: { ...stored.features.confidence },
    loudness: stored.features.loudness,
    timeline: timelineOf(stored),
    tempoAlternatives: stored.features.tempoAlternatives ?? [],
    tuningHz: stored.features.tuningHz ?? null,
    tags: stored.features.tags ?? [],
    engine: stored.features.engine,
    method: methodOf(stored.features.engine),
  };
}

/**
 * The timeline of a stored analysis. One read without its segments (a browse page, similar(),
 * recommendations: analysis_segments is not read with them) reads them only when the field is
 * asked: `segments` is then a getter whose promise GraphQL awaits, the reads of one page's nodes
 * batched into one.
 */
function timelineOf(stored: StoredAnalysis): Timeline {
  const timeline = stored.features.timeline;
  const lists = { beats: timeline.beats, bars: timeline.bars, sections: timeline.sections, tatums: tatumsOf(timeline.beats) };
  const load = unreadSegments(stored);
  if (!load) return { ...lists, segments: timeline.segments ?? [] };
  return Object.defineProperty(lists, 'segments', {
    enumerable: true,
    get: () => load().then((segments) => segments ?? []),
  }) as Timeline;
}

/** The AnalysisStatus of a key from the service's status of it (outcome undefined: nothing known of it). */
export function analysisStatusOf({ trackKey, outcome }: KeyStatus): AnalysisStatus {
  const id = globalId('AnalysisStatus', trackKey);
  if (!outcome) return { id, trackKey, status: AnalysisState.UNKNOWN, queuePosition: null, retryAfter: null, analysis: null };
  if (outcome.status === 'done') {
    return { id, trackKey, status: AnalysisState.DONE, queuePosition: null, retryAfter: null, analysis: trackAnalysisOf(outcome.analysis) };
  }
  return {
    id,
    trackKey,
    status: outcome.status === 'queued' ? AnalysisState.QUEUED : AnalysisState.PROCESSING,
    queuePosition: outcome.queuePosition,
    retryAfter: outcome.retryAfterS,
    analysis: null,
  };
}
