import { z } from 'zod';
import { DURATION_MAX_MS, timelineSchema as timelineFields, trackKeySchema } from '../../core/contract.schema';
import { ERROR_CODES } from '../../core/errors';

/*
 * The REST responses as zod schemas. They are what /api/openapi.json publishes (with the
 * request schemas of params.ts), and the OpenAPI test checks real responses against the
 * published document, so a response that drifts from them fails a test. The contract's objects
 * and their ranges live in src/core/contract.schema.ts: the sources' records are checked
 * against the same schemas.
 */

export { analysisSchema, moodSchema, searchResultSchema } from '../../core/contract.schema';

export const timelineSchema = timelineFields
  .extend({ trackKey: trackKeySchema, duration_ms: z.int().min(0).max(DURATION_MAX_MS) })
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
    code: z.enum(ERROR_CODES),
    message: z.string(),
  }),
});
