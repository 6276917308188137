import type { Segment, StoredAnalysis, TimeInterval } from '../core/types';
import { spotifyKey } from './spotify.shape';

/*
 * Spotify's audio-analysis object (GET /v1/audio-analysis/{id}) made from a stored analysis's
 * timeline. What differs from Spotify's, field by field, is in docs/FEATURES.md, "Spotify's
 * audio-analysis shape".
 */

/** The rate the engine's spectrogram runs at (signal.stft.ts STFT_RATE): Spotify's analysis_sample_rate. */
const ANALYSIS_SAMPLE_RATE = 22050;
/** Tatums per beat: the engine does not measure the subdivision; eighths are the common case. */
const TATUMS_PER_BEAT = 2;

export interface SpotifyInterval {
  start: number;
  duration: number;
  confidence: number;
}

export interface SpotifySection extends SpotifyInterval {
  loudness: number;
  tempo: number;
  tempo_confidence: number;
  key: number;
  key_confidence: number;
  mode: number;
  mode_confidence: number;
  time_signature: number;
  time_signature_confidence: number;
}

export interface SpotifySegment extends SpotifyInterval {
  loudness_start: number;
  loudness_max: number;
  loudness_max_time: number;
  loudness_end: number;
  pitches: number[];
  timbre: number[];
}

export interface SpotifyAudioAnalysis {
  meta: {
    analyzer_version: string;
    platform: string;
    detailed_status: string;
    status_code: number;
    timestamp: number;
    input_process: string;
  };
  track: {
    num_samples: number;
    duration: number;
    sample_md5: string;
    offset_seconds: number;
    window_seconds: number;
    analysis_sample_rate: number;
    analysis_channels: number;
    end_of_fade_in: number;
    start_of_fade_out: number;
    loudness: number;
    tempo: number;
    tempo_confidence: number;
    /** Not Spotify's: the level choice's runner-ups (docs/FEATURES.md, "Tempo alternatives"). */
    tempo_alternatives: { tempo: number; confidence: number }[];
    /** Ours: A4's frequency in the recording, Hz (engine 23 on). */
    tuning_hz?: number;
    time_signature: number;
    time_signature_confidence: number;
    key: number;
    key_confidence: number;
    mode: number;
    mode_confidence: number;
    codestring: string;
    code_version: number;
    echoprintstring: string;
    echoprint_version: number;
    synchstring: string;
    synch_version: number;
    rhythmstring: string;
    rhythm_version: number;
  };
  bars: SpotifyInterval[];
  beats: SpotifyInterval[];
  tatums: SpotifyInterval[];
  sections: SpotifySection[];
  segments: SpotifySegment[];
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Tatums derived from the beats: each beat split into TATUMS_PER_BEAT equal parts, each with the
 * beat's confidence (the engine tracks beats, not their subdivision).
 */
export function tatumsOf(beats: readonly TimeInterval[]): TimeInterval[] {
  return beats.flatMap((b) =>
    Array.from({ length: TATUMS_PER_BEAT }, (_, i) => ({
      start: round3(b.start + (i * b.duration) / TATUMS_PER_BEAT),
      duration: round3(b.duration / TATUMS_PER_BEAT),
      confidence: b.confidence,
    })),
  );
}

const interval = ({ start, duration, confidence }: TimeInterval): SpotifyInterval => ({ start, duration, confidence });

function segment(s: Segment): SpotifySegment {
  return {
    start: s.start,
    duration: s.duration,
    confidence: s.confidence,
    loudness_start: s.loudnessStart,
    loudness_max: s.loudnessMax,
    loudness_max_time: s.loudnessMaxTime,
    loudness_end: s.loudnessEnd,
    pitches: s.pitches,
    timbre: s.timbre,
  };
}

/** Spotify's audio-analysis object of a stored analysis. Analyses made before engine 11 have no segments (an empty list). */
export function toSpotifyAudioAnalysis(a: StoredAnalysis): SpotifyAudioAnalysis {
  const f = a.features;
  const { beats, bars, sections } = f.timeline;
  const duration = f.durationMs / 1000;
  // The sections tile the analysed window: its offset and length.
  const offset = sections[0]?.start ?? 0;
  const window = round3(sections.reduce((s, x) => s + x.duration, 0));
  const seconds = Date.parse(a.analysedAt) / 1000;
  return {
    meta: {
      analyzer_version: f.engine,
      platform: 'trackgraph',
      detailed_status: 'OK',
      status_code: 0,
      timestamp: Number.isFinite(seconds) ? Math.floor(seconds) : 0,
      input_process: `mono ${ANALYSIS_SAMPLE_RATE * 2}->${ANALYSIS_SAMPLE_RATE}`,
    },
    track: {
      num_samples: Math.round(duration * ANALYSIS_SAMPLE_RATE),
      duration,
      sample_md5: '',
      offset_seconds: offset,
      window_seconds: window,
      analysis_sample_rate: ANALYSIS_SAMPLE_RATE,
      analysis_channels: 1,
      end_of_fade_in: 0,
      start_of_fade_out: duration,
      loudness: f.loudness,
      tempo: f.tempo,
      tempo_confidence: f.confidence.tempo,
      tempo_alternatives: f.tempoAlternatives ?? [],
      ...(f.tuningHz !== undefined ? { tuning_hz: f.tuningHz } : {}),
      time_signature: f.timeSignature,
      time_signature_confidence: f.confidence.timeSignature,
      key: spotifyKey(f),
      key_confidence: f.confidence.key,
      mode: f.mode === 1 ? 1 : 0,
      mode_confidence: f.confidence.mode,
      codestring: '',
      code_version: 0,
      echoprintstring: '',
      echoprint_version: 0,
      synchstring: '',
      synch_version: 0,
      rhythmstring: '',
      rhythm_version: 0,
    },
    bars: bars.map(interval),
    beats: beats.map(interval),
    tatums: tatumsOf(beats).map(interval),
    sections: sections.map((s) => ({
      ...interval(s),
      loudness: s.loudness,
      tempo: s.tempo,
      tempo_confidence: s.tempoConfidence,
      key: s.keyConfidence > 0 ? s.key : -1,
      key_confidence: s.keyConfidence,
      mode: s.mode === 1 ? 1 : 0,
      mode_confidence: s.modeConfidence,
      time_signature: f.timeSignature,
      time_signature_confidence: f.confidence.timeSignature,
    })),
    segments: (f.timeline.segments ?? []).map(segment),
  };
}
