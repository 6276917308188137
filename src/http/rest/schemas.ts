import { z } from 'zod';

/*
 * The REST responses as zod schemas. They are what /api/openapi.json publishes (with the
 * request schemas of params.ts), and the OpenAPI test checks real responses against the
 * published document, so a response that drifts from them fails a test.
 */

const unit = (description: string) => z.number().min(0).max(1).describe(description);

export const moodSchema = z
  .object({
    happy: unit('Predicted level of happiness.'),
    sad: unit('Predicted level of sadness.'),
    relaxed: unit('Predicted level of calmness or relaxation.'),
    aggressive: unit('Predicted level of aggression or intensity.'),
  })
  .describe('Mood scores, each in [0, 1].');

export const analysisSchema = z
  .object({
    artist: z.string(),
    trackKey: z.string().regex(/^[0-9a-f]{16}$/),
    trackName: z.string(),
    duration_ms: z.int().min(0),
    tempo: z.number().describe('Beats per minute.'),
    key: z.int().min(0).max(11).describe('Pitch class 0–11 (0 = C, 9 = A).'),
    keyString: z.string().describe('"<note> <major|minor>".'),
    mode: z.int().min(0).max(1).describe('1 = major, 0 = minor.'),
    timeSignature: z.int().describe('Beats per bar.'),
    energy: unit('Intensity and activity.'),
    liveness: unit('Probability of a live performance.'),
    danceability: unit('Suitability for dancing.'),
    instrumentalness: unit('Likelihood of little or no vocals.'),
    speechiness: unit('Presence of spoken words.'),
    valence: unit('Musical positivity.'),
    arousal: unit('Emotional intensity.'),
    approachability: unit('How accessible the track is.'),
    engagement: unit('Ability to retain attention.'),
    mood: moodSchema,
    meta: z.object({ artist: z.string(), track: z.string() }),
  })
  .describe('The analysis of one track (the contract object).');

export const searchResultSchema = z.object({
  trackName: z.string(),
  artist: z.string(),
  thumbnailUrl: z.string().optional().describe('Signed cover-art URL; absent when the track has none.'),
  trackKey: z.string().regex(/^[0-9a-f]{16}$/),
  match_score: z.number().describe('How closely the result matches the query; larger is closer.'),
});

const interval = z.object({
  start: z.number().describe('Seconds from the start of the file.'),
  duration: z.number().min(0),
  confidence: z.number().min(0).max(1),
});

export const timelineSchema = z
  .object({
    trackKey: z.string().regex(/^[0-9a-f]{16}$/),
    duration_ms: z.int().min(0),
    beats: z.array(interval),
    bars: z.array(interval),
    sections: z.array(
      interval.extend({
        loudness: z.number().describe('LUFS.'),
        tempo: z.number(),
        tempoConfidence: z.number().min(0).max(1),
        key: z.int().min(0).max(11),
        keyConfidence: z.number().min(0).max(1),
        mode: z.int().min(0).max(1),
        modeConfidence: z.number().min(0).max(1),
      }),
    ),
  })
  .describe('Beats, bars and sections of the analysed window (docs/FEATURES.md, "Timeline").');

export const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const pendingSchema = z
  .object({
    success: z.literal(true),
    data: z.null(),
    status: z.enum(['queued', 'processing']),
    queuePosition: z.int().min(0),
    retryAfter: z.int().min(1).describe('Seconds; also in the Retry-After header.'),
  })
  .describe('The analysis is being computed: ask again after retryAfter seconds.');

export const errorSchema = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.enum([
      'INVALID_ARGUMENT', 'UNAUTHENTICATED', 'TRACK_NOT_FOUND', 'NOT_FOUND', 'AUDIO_UNDECODABLE', 'NO_AUDIO_SOURCE',
      'RATE_LIMITED', 'INTERNAL', 'UPSTREAM_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'ANALYSIS_TIMEOUT',
    ]),
    message: z.string(),
  }),
});
