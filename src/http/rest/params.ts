import { z } from 'zod';
import { MAX_BATCH_KEYS } from '../../analysis/analysis.service';
import { AppError } from '../../core/errors';
import { nameProblem, tidyName } from '../../core/name';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;

/** A track or artist name, over REST and GraphQL alike: the rule of src/core/name.ts. */
export const nameRule = (field: string) =>
  z
    .string({ error: `${field} must be a single string` })
    .transform(tidyName)
    .superRefine((tidied, ctx) => {
      const problem = nameProblem(field, tidied);
      if (problem !== undefined) ctx.addIssue(problem);
    });

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

/** Number of search results, over REST and GraphQL alike: a whole number from 1 to MAX_LIMIT. */
const limitOf = (n: z.ZodNumber) =>
  n.int('limit must be a whole number').min(1, 'limit must be at least 1').max(MAX_LIMIT, `limit must be at most ${MAX_LIMIT}`);

export const limitRule = limitOf(z.number({ error: 'limit must be a number' }));

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

/** Parses with a schema, turning the first problem into INVALID_ARGUMENT with a clear message. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  const given = issue.path.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
  const message = issue.code === 'invalid_type' && given === undefined ? `${field} is required` : issue.message;
  throw new AppError('INVALID_ARGUMENT', message);
}
