import { z } from 'zod';
import {
  analysisSchema,
  confidenceSchema,
  describeIssues,
  engineSchema,
  loudnessSchema,
  tagScoresSchema,
  tuningHzSchema,
  timelineSchema,
} from '../../core/contract.schema';
import { pickDescriptors } from '../../core/descriptors';
import { AppError } from '../../core/errors';
import { isTrackKey } from '../../core/track-key';
import type { AudioFeatures, StoredAnalysis, Timeline, TrackCandidate } from '../../core/types';
import type { UpstreamSearchResult } from './upstream.types';

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

/**
 * Their analysis object: the contract's schema with its ranges (the one /api/openapi.json
 * publishes). keyString and meta are derived here, so a lax server may leave them out. The
 * fields beyond the contract are kept only when they hold too; one that does not is dropped and
 * its neutral value stored, as for a server that never sends it.
 */
const upstreamAnalysisSchema = analysisSchema.extend({
  keyString: z.unknown().optional(),
  meta: z.unknown().optional(),
  loudness: loudnessSchema.optional().catch(undefined),
  confidence: confidenceSchema.optional().catch(undefined),
  timeline: timelineSchema.optional().catch(undefined),
  engine: engineSchema.optional().catch(undefined),
  // Ours, additive on the analysis object (docs/API.md): kept from another server of this project.
  tempoAlternatives: z
    .array(z.object({ tempo: analysisSchema.shape.tempo, confidence: z.number().min(0).max(1) }))
    .max(10)
    .optional()
    .catch(undefined),
  tuningHz: tuningHzSchema.optional().catch(undefined),
  tags: tagScoresSchema.optional().catch(undefined),
});

/**
 * Their analysis as ours: features from the contract fields, neutral values for the rest. A
 * record outside the contract's ranges is refused whole (UPSTREAM_INVALID): nothing of it is
 * stored.
 */
export function toStoredAnalysis(raw: unknown, now: Date = new Date()): StoredAnalysis {
  const parsed = upstreamAnalysisSchema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError('UPSTREAM_INVALID', `source upstream answered an analysis outside the contract (${describeIssues(parsed.error)})`);
  }
  const a = parsed.data;
  const features: AudioFeatures = {
    durationMs: Math.round(a.duration_ms),
    tempo: a.tempo,
    key: a.key,
    mode: a.mode,
    timeSignature: a.timeSignature,
    loudness: a.loudness ?? NEUTRAL.loudness,
    ...pickDescriptors(a),
    mood: { ...a.mood },
    confidence: a.confidence ?? { ...NEUTRAL.confidence },
    timeline: a.timeline ?? { beats: [], bars: [], sections: [] },
    ...(a.tempoAlternatives ? { tempoAlternatives: a.tempoAlternatives } : {}),
    ...(a.tuningHz !== undefined ? { tuningHz: a.tuningHz } : {}),
    ...(a.tags ? { tags: a.tags } : {}),
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

