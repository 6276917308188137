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
  .extend({ trackKey: trackKeySchema, duration_ms: z.int().min(0).max(DURATION_MAX_MS).describe('Duration of the whole file, ms.') })
  .meta({ id: 'Timeline', description: 'Beats, bars and sections of the analysed window (docs/FEATURES.md, "Timeline"), seconds from the start of the file.' });

export const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

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
