import { z } from 'zod';
import { MAX_BATCH_KEYS } from '../../analysis/analysis.service';
import { MAX_PLAYLIST_NAME, MAX_PLAYLIST_TRACKS, PLAYLIST_TARGETS } from '../../analysis/playlists.service';
import { DEFAULT_PATH_STEPS, DEFAULT_SOUND_SIMILAR, MAX_PATH_STEPS, MAX_SOUND_SIMILAR } from '../../analysis/sound.service';
import { API_KEY_SCOPES, MAX_KEY_NAME_LENGTH } from '../../auth/api-keys';
import { MAX_NAME_LENGTH } from '../../core/name';
import { MAX_SEARCH_OFFSET } from '../../search/search.service';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from '../../usage/usage.service';
import { DEFAULT_DELIVERIES, MAX_DELIVERIES } from '../../webhooks/webhook.service';
import { DEFAULT_LIMIT, MAX_LIMIT, limitOf, nameRule } from '../argument.rules';

export { parse, parseBody } from '../argument.rules';

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

/** The body of POST /api/keys. */
export const createKeyBody = z
  .object({
    name: z
      .string({ error: 'name must be a string' })
      .meta({ description: `What the key is for: 1–${MAX_KEY_NAME_LENGTH} characters (whitespace runs collapsed), no control characters.`, example: 'mobile app', maxLength: MAX_KEY_NAME_LENGTH }),
    scope: z
      .enum(API_KEY_SCOPES, { error: 'scope must be read or admin' })
      .default('read')
      .meta({ description: 'read (the default): the API. admin: also managing keys, webhooks and every key’s usage.' }),
    expiresAt: z
      .string({ error: 'expiresAt must be a string' })
      .nullable()
      .optional()
      .meta({
        description: 'From when the key is refused: a day (2031-01-01: from the start of that day, UTC) or an ISO-8601 date and time with its offset (2031-01-01T12:00:00Z). In the future. Absent or null: never.',
        example: '2031-01-01',
      }),
  })
  .meta({ id: 'CreateApiKey', description: 'The key to make.' });

export const usageParams = z.object({
  days: queryInt('days')
    .int(`days must be a whole number from 1 to ${MAX_USAGE_DAYS}`)
    .min(1, `days must be a whole number from 1 to ${MAX_USAGE_DAYS}`)
    .max(MAX_USAGE_DAYS, `days must be a whole number from 1 to ${MAX_USAGE_DAYS}`)
    .default(DEFAULT_USAGE_DAYS)
    .meta({ description: `The last N UTC days, today included: 1–${MAX_USAGE_DAYS}, default ${DEFAULT_USAGE_DAYS}.`, example: 30 }),
});

export const keyIdPath = z.object({
  id: z.string().max(64).meta({ description: 'The key’s id, as listed (never the key).', example: '3f9a1c2b7d4e' }),
});

/** The body of POST /api/webhooks. The URL and events are checked by the webhooks service. */
export const createWebhookBody = z.object({
  url: z.string({ error: 'url must be a string' }).meta({ description: 'An http(s) URL that resolves to a public address.', example: 'https://example.com/hooks/trackgraph' }),
  events: z
    .array(z.string({ error: 'events must be strings' }), { error: 'events must be a list of event names' })
    .optional()
    .meta({ description: 'analysis.completed and/or analysis.failed; both when absent.', example: ['analysis.completed', 'analysis.failed'] }),
});

export const deliveriesQuery = z.object({
  limit: queryInt('limit')
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_DELIVERIES, `limit must be at most ${MAX_DELIVERIES}`)
    .default(DEFAULT_DELIVERIES)
    .meta({ description: `Deliveries listed, newest first: 1–${MAX_DELIVERIES}, default ${DEFAULT_DELIVERIES}.`, example: 20 }),
});

/** The body of POST /api/admin/reanalyse (optional: no body redoes everything not made by the current engine). */
export const reanalyseBody = z.object({
  olderThan: z
    .union([z.int().min(0), z.string()], { error: 'olderThan must be an engine version: a whole number such as 11, or trackgraph-engine/11' })
    .optional()
    .meta({ description: 'Only analyses of an engine version below this one (method ignored): 11 or trackgraph-engine/11. Absent: every analysis of an older version, or of the current version by another method.', example: 11 }),
  dryRun: z.boolean({ error: 'dryRun must be true or false' }).optional().meta({ description: 'Lists and counts what would be redone; analyses nothing.' }),
});

/** The job path of GET /api/admin/reanalyse/{id}. */
export const reanalyseJobPath = z.object({
  id: z.string().max(64).meta({ description: 'The re-analysis job’s id, from POST /api/admin/reanalyse.', example: 'rea_0f8e2c5a9b7d4e1f8a3c6b2d5e9f1a7c' }),
});

/** How a list of tracks is answered: JSON (the contract's shape), or an M3U8 playlist of the music folder's files. */
const format = z
  .enum(['json', 'm3u'], { error: 'format must be json or m3u' })
  .optional()
  .meta({ description: 'json (the default), or m3u: an M3U8 playlist of the tracks that are files of the music folder (also asked by Accept: audio/x-mpegurl).' });

const countOf = (field: string, min: number, max: number, fallback: number, description: string) =>
  queryInt(field)
    .int(`${field} must be a whole number from ${min} to ${max}`)
    .min(min, `${field} must be a whole number from ${min} to ${max}`)
    .max(max, `${field} must be a whole number from ${min} to ${max}`)
    .default(fallback)
    .meta({ description, example: fallback });

export const similarParams = z.object({
  by: z
    .enum(['descriptors', 'sound'], { error: 'by must be descriptors or sound' })
    .default('descriptors')
    .meta({ description: 'What makes tracks near: descriptors (the default; tempo, key, mode, descriptors, moods) or sound (their sound embeddings; docs/SIMILARITY.md).' }),
  limit: countOf('limit', 1, MAX_SOUND_SIMILAR, DEFAULT_SOUND_SIMILAR, `How many: 1–${MAX_SOUND_SIMILAR}, default ${DEFAULT_SOUND_SIMILAR}.`),
  otherArtists: z
    .enum(['true', 'false'], { error: 'otherArtists must be true or false' })
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: "true: leave out the tracks of the asked track's own artist (names compared without case, accents or spacing); false (the default): every artist." }),
  format,
});

export const pathParams = z.object({
  from: z.string({ error: 'from must be a single trackKey' }).meta({ description: 'The stored track the path starts at.', example: 'bc24aaa5a97c70ed' }),
  to: z.string({ error: 'to must be a single trackKey' }).meta({ description: 'The stored track the path ends at.', example: 'f63116f780b3b1eb' }),
  steps: countOf('steps', 0, MAX_PATH_STEPS, DEFAULT_PATH_STEPS, `Tracks between the two: 0–${MAX_PATH_STEPS}, default ${DEFAULT_PATH_STEPS}.`),
  format,
});

/** GET /api/playlists/m3u: any list of track keys as a playlist. */
export const m3uParams = z.object({
  keys: z
    .string({ error: 'keys must be a single comma-separated string' })
    .transform((v) => v.split(',').map((k) => k.trim()).filter((k) => k.length > 0))
    .pipe(z.array(z.string()).min(1, 'keys must name at least one trackKey').max(MAX_PLAYLIST_TRACKS, `at most ${MAX_PLAYLIST_TRACKS} track keys`))
    .meta({ description: `Up to ${MAX_PLAYLIST_TRACKS} trackKeys, comma-separated, in the playlist's order.`, example: 'bc24aaa5a97c70ed,f63116f780b3b1eb' }),
});

/** The body of POST /api/playlists. */
export const savePlaylistBody = z
  .object({
    name: z.string({ error: 'name must be a string' }).meta({ description: `The playlist's name: 1–${MAX_PLAYLIST_NAME} characters; in the music folder it names the file (no / \\ : * ? " < > |).`, example: 'Late night' }),
    trackKeys: z
      .array(z.string({ error: 'trackKeys must be strings' }), { error: 'trackKeys must be a list of trackKeys' })
      .min(1, 'trackKeys must name at least one trackKey')
      .max(MAX_PLAYLIST_TRACKS, `at most ${MAX_PLAYLIST_TRACKS} trackKeys`)
      .meta({ description: 'The tracks, in order: a similar answer, a path, recommendations, a page.' }),
    target: z
      .enum(PLAYLIST_TARGETS, { error: `target must be ${PLAYLIST_TARGETS.join(' or ')}` })
      .default('library')
      .meta({ description: 'library (the default): an M3U8 file in the music folder; subsonic: a playlist of the Subsonic server (SOURCES=subsonic), its songs found by the ids kept with their analyses, else by name.' }),
  })
  .meta({ id: 'SavePlaylist', description: 'The playlist to save.' });
