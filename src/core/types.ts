/**
 * The vocabulary shared by services, sources, the engine and the edges. Nothing here knows
 * about HTTP, GraphQL, a database or a concrete source.
 */

import type { DescriptorValues, MoodValues } from './descriptors';

/** Where a track's audio can be had: the audio source's stable name and that source's own locator. */
export interface AudioRef {
  /** Name of the audio source that can fetch it ("library", "deezer", "upstream", …). */
  source: string;
  /** The source's locator: a library-relative path, a Deezer track id, an upstream trackKey, … */
  locator: string;
  /** A direct URL, when the source has one (e.g. a Deezer preview MP3); may expire. */
  url?: string;
}

/** One recording as a metadata source reports it, before ranking. */
export interface TrackCandidate {
  artist: string;
  trackName: string;
  album?: string;
  durationMs?: number;
  thumbnailUrl?: string;
  isrc?: string;
  /** Name of the metadata source that found it. */
  source: string;
  /** The recording's id within that source. */
  sourceId?: string;
  /** The source's own relevance in [0,1], when it reports one (MusicBrainz score / 100). */
  sourceScore?: number;
  /** Where its audio is; absent for metadata-only sources. */
  audio?: AudioRef;
}

/** Metadata cached per trackKey by search, so that analysis can find the audio later. */
export interface TrackMetadata extends TrackCandidate {
  trackKey: string;
}

/** Finds a track's metadata by key without a search (the library knows its own files). */
export interface TrackLookup {
  lookup(trackKey: string): TrackMetadata | undefined;
}

/** An element of the contract's search response. */
export interface SearchResult {
  trackName: string;
  artist: string;
  /** The source's picture, or the track's placeholder (both load as an image). */
  thumbnailUrl: string;
  trackKey: string;
  match_score: number;
}

/** Mood scores in [0, 1], one per mood of the descriptor registry (src/core/descriptors.ts). */
export type Mood = MoodValues;

/** The contract's analysis object, field for field; its descriptors are the registry's. */
export type TrackAnalysis = DescriptorValues & TrackAnalysisFields;

interface TrackAnalysisFields {
  artist: string;
  trackKey: string;
  trackName: string;
  duration_ms: number;
  tempo: number;
  key: number;
  keyString: string;
  mode: number;
  timeSignature: number;
  mood: Mood;
  meta: { artist: string; track: string };
}

/** A span of time in seconds from the start of the file. */
export interface TimeInterval {
  start: number;
  duration: number;
  confidence: number;
}

export interface Section extends TimeInterval {
  /** Integrated loudness of the section, LUFS. */
  loudness: number;
  tempo: number;
  tempoConfidence: number;
  key: number;
  keyConfidence: number;
  mode: number;
  modeConfidence: number;
}

/**
 * A segment: from one onset to the next, a sound of roughly even timbre and harmony (Spotify's
 * audio-analysis segment; docs/FEATURES.md, "Segments").
 */
export interface Segment extends TimeInterval {
  /** Level at the segment's start, dB relative to full scale (floored at -60). */
  loudnessStart: number;
  /** Loudest level in the segment, dB. */
  loudnessMax: number;
  /** Seconds from the segment's start to its loudest level. */
  loudnessMaxTime: number;
  /** Level at the segment's end, dB. */
  loudnessEnd: number;
  /** 12 pitch-class strengths (C first), the strongest 1. */
  pitches: number[];
  /** 12 cepstral coefficients of the segment's mel spectrum (src/engine/segments.ts). */
  timbre: number[];
}

/** Time-resolved analysis: beats, bars and sections, as Spotify's audio-analysis had them. */
export interface Timeline {
  beats: TimeInterval[];
  bars: TimeInterval[];
  sections: Section[];
  /** Onset-bounded segments; absent from analyses made before engine 11 and from upstream servers. */
  segments?: Segment[];
}

/** One of the MSD auto-tagger's tags (msd-musicnn-1) and its probability, 0–1. */
export interface TagScore {
  name: string;
  probability: number;
}

/**
 * A sound embedding: a vector placing the track among others by how it sounds, so that tracks
 * whose vectors point alike sound alike (cosine similarity; docs/SIMILARITY.md). `kind` names the
 * method and its version (`signal/4`, `musicnn/2`): vectors of different kinds are never compared.
 */
export interface SoundEmbedding {
  kind: string;
  vector: number[];
}

/** A tempo the level choice weighed and did not choose, with its probability among the candidates. */
export interface TempoAlternative {
  tempo: number;
  confidence: number;
}

export interface Confidences {
  tempo: number;
  key: number;
  mode: number;
  timeSignature: number;
}

/** Everything the engine measures from one file's audio; its descriptors and moods are the registry's, in [0,1]. */
export type AudioFeatures = DescriptorValues & MeasuredFeatures;

interface MeasuredFeatures {
  /** Duration of the whole file, not of the analysed window. */
  durationMs: number;
  tempo: number;
  /** Pitch class 0–11 (0 = C, 9 = A), of the whole file (the other fields are the analysis window's). */
  key: number;
  /** 1 major, 0 minor. */
  mode: number;
  timeSignature: number;
  /** Integrated loudness, LUFS (EBU R128). */
  loudness: number;
  mood: Mood;
  confidence: Confidences;
  timeline: Timeline;
  /**
   * The level choice's runner-ups (half or double the tempo, mostly), most probable first; absent
   * from analyses made before engine 11 and from upstream servers.
   */
  tempoAlternatives?: TempoAlternative[];
  /**
   * The frequency the recording tunes A4 to, Hz, 0.1 Hz steps (427.5–452.9: a quarter-tone
   * either side of 440), from its spectral peaks' deviation from equal temperament; absent from
   * analyses made before engine 23 and from upstream servers.
   */
  tuningHz?: number;
  /**
   * The MSD auto-tagger's 50 tags (genres, eras, voices, instruments, moods) with their
   * probabilities, most probable first; present when trained models made the analysis (MODELS_DIR).
   */
  tags?: TagScore[];
  /**
   * The track's sound embeddings (the signal path's always; the models' with MODELS_DIR), stored
   * beside the analysis for similarity by sound; absent from analyses made before engine 25 (engines 25–28 made the signal path's `signal/1` to `signal/3`), from
   * upstream servers, and from analyses read back from the store (the vectors stay in their table).
   */
  embeddings?: SoundEmbedding[];
  /** Identifies the engine build that produced these values (its algorithm version). */
  engine: string;
}

/** A stored analysis: the features plus the identity of the track they belong to. */
export interface StoredAnalysis {
  trackKey: string;
  artist: string;
  trackName: string;
  features: AudioFeatures;
  /** ISO-8601 time of the analysis. */
  analysedAt: string;
  /** The audio source the bytes came from. */
  source: string;
}

/** Audio handed to the engine: bytes in memory or a local file it may read itself. */
export type AudioInput = { bytes: Uint8Array } | { path: string };

/** Tags and facts read from a file without decoding it. */
export interface AudioProbe {
  artist?: string;
  title?: string;
  album?: string;
  durationMs?: number;
  /** Sample rate (Hz) and channel count the headers state. */
  sampleRate?: number;
  channels?: number;
  /** Embedded cover art, when present. */
  picture?: { mime: string; data: Uint8Array };
}

/**
 * The analysis engine as the services see it. The implementation runs on a worker pool;
 * failures are AppErrors (AUDIO_UNDECODABLE, ANALYSIS_TIMEOUT).
 */
export interface AnalysisEngine {
  /** How its analyses' moods and danceability are made (`signal`, `models:<set>`); `signal` when absent. */
  readonly method?: string;
  analyse(input: AudioInput, options?: { signal?: AbortSignal }): Promise<AudioFeatures>;
  probe(input: AudioInput): Promise<AudioProbe>;
  close(): Promise<void>;
}
