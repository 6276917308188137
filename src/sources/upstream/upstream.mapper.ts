import { z } from 'zod';
import { isTrackKey } from '../../core/track-key';
import type { AudioFeatures, StoredAnalysis, Timeline, TrackCandidate } from '../../core/types';
import type { UpstreamAnalysis, UpstreamSearchResult } from './upstream.types';

export const UPSTREAM = 'upstream';

/**
 * Values stored for fields the contract does not carry, when the upstream does not send them
 * either (docs/SEARCH.md lists them): the EBU R128 reference loudness, zero confidence
 * ("unknown", not "wrong"), an empty timeline.
 */
export const NEUTRAL = {
  loudness: -23,
  confidence: { tempo: 0, key: 0, mode: 0, timeSignature: 0 },
  timeline: { beats: [], bars: [], sections: [] } as Timeline,
} as const;

export function toCandidate(result: UpstreamSearchResult): TrackCandidate | undefined {
  if (!result.artist?.trim() || !result.trackName?.trim() || !isTrackKey(result.trackKey)) return undefined;
  const score = Number(result.match_score);
  return {
    artist: result.artist,
    trackName: result.trackName,
    ...(typeof result.thumbnailUrl === 'string' && result.thumbnailUrl !== '' ? { thumbnailUrl: result.thumbnailUrl } : {}),
    source: UPSTREAM,
    sourceId: result.trackKey,
    ...(Number.isFinite(score) ? { sourceScore: Math.min(1, Math.max(0, score)) } : {}),
    audio: { source: UPSTREAM, locator: result.trackKey },
  };
}

export function toCandidates(results: readonly UpstreamSearchResult[]): TrackCandidate[] {
  return results.flatMap((r) => toCandidate(r) ?? []);
}

const num = z.number().finite();
const interval = z.object({ start: num, duration: num, confidence: num });
const timelineSchema = z.object({
  beats: z.array(interval),
  bars: z.array(interval),
  sections: z.array(
    interval.extend({
      loudness: num,
      tempo: num,
      tempoConfidence: num,
      key: num,
      keyConfidence: num,
      mode: num,
      modeConfidence: num,
    }),
  ),
});

/** The contract's analysis object; anything extra is optional and checked only if present. */
export const analysisSchema = z.object({
  artist: z.string(),
  trackKey: z.string(),
  trackName: z.string(),
  duration_ms: num.nonnegative(),
  tempo: num,
  key: z.number().int().min(-1).max(11),
  mode: z.number().int().min(0).max(1),
  timeSignature: num,
  energy: num,
  liveness: num,
  danceability: num,
  instrumentalness: num,
  speechiness: num,
  valence: num,
  arousal: num,
  approachability: num,
  engagement: num,
  mood: z.object({ happy: num, sad: num, relaxed: num, aggressive: num }),
  loudness: num.optional().catch(undefined),
  confidence: z.object({ tempo: num, key: num, mode: num, timeSignature: num }).optional().catch(undefined),
  timeline: timelineSchema.optional().catch(undefined),
  engine: z.string().optional().catch(undefined),
});

/** Their analysis as ours: features from the contract fields, neutral values for the rest. */
export function toStoredAnalysis(raw: UpstreamAnalysis, now: Date = new Date()): StoredAnalysis {
  const a = analysisSchema.parse(raw);
  const features: AudioFeatures = {
    durationMs: Math.round(a.duration_ms),
    tempo: a.tempo,
    key: a.key,
    mode: a.mode,
    timeSignature: a.timeSignature,
    loudness: a.loudness ?? NEUTRAL.loudness,
    energy: a.energy,
    liveness: a.liveness,
    danceability: a.danceability,
    instrumentalness: a.instrumentalness,
    speechiness: a.speechiness,
    valence: a.valence,
    arousal: a.arousal,
    approachability: a.approachability,
    engagement: a.engagement,
    mood: { ...a.mood },
    confidence: a.confidence ?? { ...NEUTRAL.confidence },
    timeline: a.timeline ?? { beats: [], bars: [], sections: [] },
    engine: a.engine ? `upstream:${a.engine}` : UPSTREAM,
  };
  return {
    trackKey: a.trackKey,
    artist: a.artist,
    trackName: a.trackName,
    features,
    analysedAt: now.toISOString(),
    source: UPSTREAM,
  };
}
