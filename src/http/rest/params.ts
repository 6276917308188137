import { z } from 'zod';
import { MAX_BATCH_KEYS } from '../../analysis/analysis.service';
import { DEFAULT_LIMIT, limitOf, nameRule } from '../params';

export { parse } from '../params';

/**
 * A name in a REST query string. The contract writes spaces as '+', and clients send it
 * literally or percent-encoded (%2B); the query parser has already turned a literal '+' into a
 * space, so any '+' left is an encoded one, which also means a space.
 */
const name = (field: string) =>
  z
    .string({ error: `${field} must be a single string` })
    .transform((v) => v.replace(/\+/g, ' '))
    .pipe(nameRule(field));

export const searchParams = z.object({
  track: name('track'),
  artist: name('artist').optional(),
  // Coerced: a query string carries text (and the OpenAPI document shows the integer range).
  limit: limitOf(z.coerce.number({ error: 'limit must be a number' })).default(DEFAULT_LIMIT),
});

export const analysisParams = z.object({
  artist: name('artist').optional(),
  track: name('track').optional(),
});

/** Track keys are hex; either case is accepted (AnalysisService reads them). */
export const batchParams = z.object({
  keys: z
    .string({ error: 'keys must be a single comma-separated string' })
    .describe(`Up to ${MAX_BATCH_KEYS} trackKeys, comma-separated; the answer keeps their order.`)
    .transform((v) => v.split(',').map((k) => k.trim()).filter((k) => k.length > 0))
    .pipe(
      z
        .array(z.string())
        .min(1, 'keys must name at least one trackKey')
        .max(MAX_BATCH_KEYS, `at most ${MAX_BATCH_KEYS} track keys per request`),
    ),
});
