import { z } from 'zod';
import { DURATION_MAX_MS, timelineSchema as timelineFields, trackKeySchema } from '../../core/contract.schema';
import { ERROR_CODES } from '../../core/errors';
import { TEST_EVENT, WEBHOOK_EVENTS } from '../../webhooks/webhook.service';

/*
 * The REST responses as zod schemas. They are what /api/openapi.json publishes (with the
 * request schemas of params.ts), and the OpenAPI test checks real responses against the
 * published document, so a response that drifts from them fails a test. The contract's objects
 * and their ranges live in src/core/contract.schema.ts: the sources' records are checked
 * against the same schemas.
 */

import { analysisSchema as contractAnalysisSchema, searchResultSchema, tagScoresSchema, tuningHzSchema } from '../../core/contract.schema';

export { moodSchema, searchResultSchema } from '../../core/contract.schema';

/** The contract's analysis object, with the additive tempoAlternatives and tags (docs/API.md). */
export const analysisSchema = contractAnalysisSchema
  .extend({
    tempoAlternatives: z
      .array(
        z.object({
          tempo: z.number().min(0).describe('Beats per minute.'),
          confidence: z.number().min(0).max(1).describe('The level’s probability among the candidates (docs/FEATURES.md, "Tempo alternatives").'),
        }),
      )
      .optional()
      .describe('Additive: the tempi the level choice ranked next (half or double, mostly), most probable first; present when the analysis recorded them (engine 11 on).'),
    tuningHz: tuningHzSchema
      .optional()
      .describe('Additive: the frequency the recording tunes A4 to, Hz (docs/FEATURES.md, "Tuning"); present on analyses from engine 23 on.'),
    tags: tagScoresSchema
      .optional()
      .describe('Additive: the MSD auto-tagger’s 50 tags (genres, eras, voices, instruments, moods) with their probabilities, most probable first; present when trained models made the analysis (MODELS_DIR).'),
  })
  .meta({ ...contractAnalysisSchema.meta(), id: 'TrackAnalysis' });

export const timelineSchema = timelineFields
  .extend({ trackKey: trackKeySchema, duration_ms: z.int().min(0).max(DURATION_MAX_MS).describe('Duration of the whole file, ms.') })
  .meta({ id: 'Timeline', description: 'Beats, bars and sections of the analysed window (docs/FEATURES.md, "Timeline"), seconds from the start of the file.' });

export const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const sourceFailureSchema = z
  .object({
    source: z.string().describe('The source’s name, as in SOURCES (deezer, musicbrainz, upstream).'),
    code: z.enum(ERROR_CODES).describe('Why: UPSTREAM_UNAVAILABLE, UPSTREAM_TIMEOUT, UPSTREAM_INVALID, RATE_LIMITED …'),
    message: z.string().describe("What went wrong, in words for a person (an error this server knows says what it was; anything unexpected is masked, its details only in the server's log). Not for matching: read `code`."),
  })
  .meta({ id: 'SourceFailure', description: 'A source that could not be searched for this query.' });

/**
 * The search answer: the contract's `{success, data}`, and `failedSources` only when a source
 * could not be asked (an additive field: a contract client reads `data` as before).
 */
export const searchResponseSchema = ok(z.array(searchResultSchema))
  .extend({
    failedSources: z
      .array(sourceFailureSchema)
      .optional()
      .describe('Present only when some source failed: the results hold what the others found, so an empty `data` may not mean "no such track".'),
  })
  .meta({ id: 'SearchResponse' });

export const pendingSchema = z
  .object({
    success: z.literal(true),
    data: z.null(),
    status: z.enum(['queued', 'processing']),
    queuePosition: z.int().min(0),
    retryAfter: z.int().min(1).describe('Seconds; also in the Retry-After header.'),
  })
  .meta({
    id: 'AnalysisPending',
    description: 'The analysis is being computed: ask again after retryAfter seconds.',
    example: { success: true, data: null, status: 'queued', queuePosition: 0, retryAfter: 5 },
  });

export const errorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(ERROR_CODES).meta({ id: 'ErrorCode', description: 'A protocol-neutral code; README lists when each is given.' }),
      message: z.string().describe('What went wrong, for a person to read.'),
    }),
  })
  .meta({
    id: 'Error',
    description: 'Every error has this one shape.',
    example: { success: false, error: { code: 'INVALID_ARGUMENT', message: 'track is required' } },
  });

const isoTime = (description: string) => z.string().meta({ format: 'date-time', description, example: '2030-01-01T00:00:00.000Z' });

export const apiKeyScopeSchema = z.enum(['read', 'admin']).meta({
  id: 'ApiKeyScope',
  description: 'read: the API. admin: the API, and managing keys, webhooks and every key’s usage.',
});

export const apiKeySchema = z
  .object({
    id: z.string().describe('The key’s id ("env:N" and "env-admin:N" for keys of API_KEYS and ADMIN_API_KEYS); never the key.'),
    name: z.string(),
    scope: apiKeyScopeSchema,
    source: z
      .enum(['API_KEYS', 'ADMIN_API_KEYS', 'cli', 'api', 'first-run'])
      .describe('Where the key comes from: an environment list (revoked only by removing it there), or the database (the CLI, the API, the first start).'),
    createdAt: isoTime('When it was made; for a key of the environment, when this server process started.'),
    expiresAt: isoTime('From when it is refused; null: never.').nullable(),
    lastUsedAt: isoTime('Its last request, as of the last flush of any node (every USAGE_FLUSH_MS) or this node’s own; null: never used.').nullable(),
    revokedAt: isoTime('When it was revoked; null: it is not.').nullable(),
  })
  .meta({
    id: 'ApiKey',
    description: 'An API key as it is listed: never the key itself.',
    example: {
      id: '3f9a1c2b7d4e',
      name: 'mobile app',
      scope: 'read',
      source: 'api',
      createdAt: '2030-01-01T09:30:00.000Z',
      expiresAt: null,
      lastUsedAt: '2030-01-02T17:04:12.512Z',
      revokedAt: null,
    },
  });

export const createdApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scope: apiKeyScopeSchema,
    key: z.string().describe('The key: shown in this answer only (only its hash is stored). Send it as "Authorization: Bearer <key>".'),
    createdAt: isoTime('When it was made.'),
    expiresAt: isoTime('From when it is refused; null: never.').nullable(),
  })
  .meta({
    id: 'CreatedApiKey',
    description: 'A key just made, with the key itself: store it now.',
    example: {
      id: '3f9a1c2b7d4e',
      name: 'mobile app',
      scope: 'read',
      key: 'tg_8kQ2…',
      createdAt: '2030-01-01T09:30:00.000Z',
      expiresAt: '2031-01-01T00:00:00.000Z',
    },
  });

export const usageDaySchema = z
  .object({
    keyId: z.string(),
    name: z.string().describe('The key’s name (its id if the key is no longer known).'),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('The UTC day, YYYY-MM-DD.'),
    requests: z.int().min(0).describe('Requests made with the key while it was valid (REST and GraphQL HTTP requests; those the rate limit refused included).'),
    analyses: z.int().min(0).describe('Of those, the requests that needed an analysis not stored yet.'),
    uploads: z.int().min(0).describe('Uploads begun (POST /api/audio/analyses), whatever their outcome: what UPLOAD_QUOTA_FILES_PER_DAY counts.'),
    uploadBytes: z.int().min(0).describe('Bytes received of those uploads: what UPLOAD_QUOTA_BYTES_PER_DAY counts.'),
  })
  .meta({
    id: 'UsageDay',
    description: 'Requests, analyses and uploads of one key on one UTC day. Days without requests have no row.',
    example: { keyId: '3f9a1c2b7d4e', name: 'mobile app', day: '2030-01-02', requests: 1240, analyses: 31, uploads: 4, uploadBytes: 38_211_874 },
  });

/*
 * Webhooks (src/webhooks): the body that makes one, and what the API shows of a webhook and of
 * a delivery. Times are ISO-8601.
 */

export const webhookSchema = z
  .object({
    id: z.string().meta({ description: 'The webhook\'s id.', example: 'wh_5f1c0a9e2b7d4c3a8e6f1b2d' }),
    url: z.string().meta({ description: 'Where its events are POSTed.', example: 'https://example.com/hooks/trackgraph' }),
    events: z.array(z.enum(WEBHOOK_EVENTS)).meta({ description: 'The events it receives (webhook.test is sent on request, whatever these are).' }),
    createdAt: isoTime('When it was made.'),
    disabledAt: isoTime('When it was disabled after failing repeatedly; null while it is enabled.').nullable(),
    disabledReason: z.string().nullable().meta({ description: 'Why it was disabled; null while it is enabled.' }),
    consecutiveFailures: z.int().min(0).meta({ description: 'Failed attempts since its last success.' }),
  })
  .meta({ id: 'Webhook', description: 'A webhook of an API key. Its signing secret is shown once, when it is made.' });

export const createdWebhookSchema = webhookSchema
  .pick({ id: true, url: true, events: true, createdAt: true })
  .extend({
    secret: z.string().meta({
      description: 'The signing secret (whsec_ and base64): shown in this answer only. Verify every message with it (docs/API.md, "Webhooks").',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
  })
  .meta({ id: 'CreatedWebhook', description: 'A new webhook and its signing secret, which no later answer shows.' });

export const deliverySchema = z
  .object({
    id: z.string().meta({ description: 'The webhook-id header the receiver gets: the same on every attempt.', example: 'msg_0d1c2b3a4f5e6d7c8b9a0f1e' }),
    event: z.enum([...WEBHOOK_EVENTS, TEST_EVENT]).meta({ description: 'The event it carries.' }),
    attempt: z.int().min(0).meta({ description: 'Attempts made so far.' }),
    status: z.enum(['pending', 'retrying', 'succeeded', 'failed']).meta({
      description: 'pending: not tried yet; retrying: the last attempt failed and another is due at nextAttemptAt; succeeded: the receiver answered 2xx; failed: no attempt is left.',
    }),
    responseStatus: z.int().nullable().meta({ description: 'The receiver\'s HTTP status at the last attempt; null when it did not answer.' }),
    durationMs: z.int().min(0).nullable().meta({ description: 'How long the last attempt took, ms.' }),
    error: z.string().nullable().meta({ description: 'Why the last attempt failed (HTTP status, timeout, refused address …).' }),
    createdAt: isoTime('When the event was recorded for this webhook.'),
    nextAttemptAt: isoTime('When it is tried next, while pending or retrying; else null.').nullable(),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event to one webhook and where its delivery stands.' });
