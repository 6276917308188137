import { z } from 'zod';
import { MAX_BATCH_KEYS } from '../../analysis/analysis.service';
import { MAX_NAME_LENGTH } from '../../core/name';
import { MAX_SEARCH_OFFSET } from '../../search/search.service';
import { DEFAULT_LIMIT, MAX_LIMIT, limitOf, nameRule } from '../params';

export { parse } from '../params';

/*
 * The REST routes' query parameters as zod schemas: the routes parse with them and
 * /api/openapi.json publishes them (descriptions, examples and limits included).
 */

/**
 * A name in a REST query string. The contract writes spaces as '+', and clients send it
 * literally or percent-encoded (%2B); the query parser has already turned a literal '+' into a
 * space, so any '+' left is an encoded one, which also means a space.
 */
const name = (field: string, description: string, example: string) =>
  z
    .string({ error: `${field} must be a single string` })
    .transform((v) => v.replace(/\+/g, ' '))
    .pipe(nameRule(field))
    // The rule is checked after tidying (whitespace runs collapsed); the document states its bound.
    .meta({ description: `${description} At most ${MAX_NAME_LENGTH} characters, no control characters; '+' is a space.`, example, maxLength: MAX_NAME_LENGTH });

/** A whole number in a query string (which carries text). */
const queryInt = (field: string) => z.coerce.number<number>({ error: `${field} must be a number` });

export const searchParams = z.object({
  track: name('track', 'Title to look for.', 'Money'),
  artist: name('artist', 'Artist, to narrow the search.', 'Pink Floyd').optional(),
  limit: limitOf(queryInt('limit'))
    .default(DEFAULT_LIMIT)
    .meta({ description: `Results per page: 1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}.`, example: 10 }),
  offset: queryInt('offset')
    .int('offset must be a whole number')
    .min(0, 'offset must be at least 0')
    .max(MAX_SEARCH_OFFSET, `offset must be at most ${MAX_SEARCH_OFFSET}`)
    .default(0)
    .meta({
      description: `Matches to skip (paging): 0–${MAX_SEARCH_OFFSET}, default 0. The answer's Link header names the next and previous pages.`,
      example: 0,
    }),
});

export const analysisParams = z.object({
  artist: name('artist', 'With track: finds an unsearched key as search would.', 'Pink Floyd').optional(),
  track: name('track', 'With artist: finds an unsearched key as search would.', 'Money').optional(),
});

/** A comma-separated list of track keys (either case: AnalysisService reads them). */
const keyList = (field: string) =>
  z
    .string({ error: `${field} must be a single comma-separated string` })
    .transform((v) => v.split(',').map((k) => k.trim()).filter((k) => k.length > 0))
    .pipe(
      z
        .array(z.string())
        .min(1, `${field} must name at least one trackKey`)
        .max(MAX_BATCH_KEYS, `at most ${MAX_BATCH_KEYS} track keys per request`),
    )
    .meta({
      description: `Up to ${MAX_BATCH_KEYS} trackKeys, comma-separated; the answer keeps their order.`,
      example: 'bc24aaa5a97c70ed,f63116f780b3b1eb',
    });

/** Batch reads name their keys as `keys`, or as `ids` (Spotify's name for the same list); one of the two. */
export const batchQuery = z.object({
  keys: keyList('keys').optional(),
  ids: keyList('ids').optional().meta({ description: 'The same as keys (Spotify\'s name for it); give one of the two.' }),
});

export const batchParams = batchQuery.transform((q, ctx) => {
    if (q.keys && q.ids) {
      ctx.addIssue({ code: 'custom', message: 'give keys or ids, not both', path: ['ids'] });
      return z.NEVER;
    }
    const keys = q.keys ?? q.ids;
    if (!keys) {
      ctx.addIssue({ code: 'custom', message: 'keys is required', path: ['keys'] });
      return z.NEVER;
    }
    return { keys };
  });
