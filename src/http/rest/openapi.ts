import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MAX_BATCH_KEYS } from '../../analysis/analysis.service';
import { SERVED_IMAGE_FORMATS, SERVED_IMAGE_TYPES } from '../../artwork/image.sniff';
import { analysisParams, batchParams, searchParams } from './params';
import { analysisSchema, errorSchema, ok, pendingSchema, searchResultSchema, timelineSchema } from './schemas';

/*
 * The OpenAPI 3.1 document of the REST API, generated at start from the zod schemas the routes
 * parse their input with (params.ts) and the response schemas (schemas.ts): nothing in it is
 * written by hand but the prose. OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what
 * z.toJSONSchema emits.
 */

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Query parameters from a params object schema: one per key, required unless optional or defaulted. */
function queryParameters(schema: z.ZodObject): JsonSchema[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const s = field as z.ZodType;
    const described = jsonSchema(s, 'input');
    return {
      name,
      in: 'query',
      required: !s.safeParse(undefined).success,
      ...(typeof described.description === 'string' ? { description: described.description } : {}),
      schema: described,
    };
  });
}

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema: jsonSchema(schema, 'output') } },
});

const trackKeyPath = {
  name: 'trackKey',
  in: 'path',
  required: true,
  description: 'First 16 hex of sha256(lower(trim(artist)) + ":" + lower(trim(track))), after Unicode NFC; either case.',
  schema: { type: 'string', pattern: '^[0-9a-fA-F]{16}$' },
};

const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));

const ERROR_MEANINGS: Record<number, string> = {
  400: 'INVALID_ARGUMENT: a parameter is missing or invalid.',
  401: 'UNAUTHENTICATED: missing or unknown API key (WWW-Authenticate: Bearer).',
  404: 'TRACK_NOT_FOUND: the key is unknown; search first or pass artist and track.',
  422: 'AUDIO_UNDECODABLE or NO_AUDIO_SOURCE.',
  429: 'RATE_LIMITED (Retry-After).',
  500: 'INTERNAL.',
  502: 'UPSTREAM_UNAVAILABLE (no source could answer) or UPSTREAM_INVALID (a source answered a record outside the contract).',
  503: 'SERVICE_UNAVAILABLE: the store is unreachable (Retry-After).',
  504: 'UPSTREAM_TIMEOUT or ANALYSIS_TIMEOUT.',
};

const ifNoneMatch = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The ETag of an answer already held: 304 without a body when it is still the answer.',
  schema: { type: 'string' },
};

/** The document served at GET /api/openapi.json. */
export function openApiDocument(options: { version: string; serverUrl: string }): JsonSchema {
  const etag = { ETag: { description: 'Strong entity tag of the stored answer (it never changes).', schema: { type: 'string' } } };
  const analysisOutcome = (data: z.ZodType, what: string) => ({
    '200': { ...json(ok(data), what), headers: etag },
    '304': { description: 'Not modified: If-None-Match named the ETag of the stored answer.', headers: etag },
    '202': {
      ...json(pendingSchema, 'Being analysed: ask again after retryAfter seconds.'),
      headers: { 'Retry-After': { schema: { type: 'integer' } } },
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'trackgraph REST API',
      version: options.version,
      description:
        'Track search and audio analysis (the Audioscape contract), batch reads and time-resolved analysis. ' +
        'GraphQL, with browsing and similarity, is at /graphql (docs/API.md).',
      license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
    },
    servers: [{ url: options.serverUrl }],
    security: [{ bearer: [] }],
    paths: {
      '/api/audio/search': {
        get: {
          operationId: 'search',
          summary: 'Tracks matching a title (and artist), best match first.',
          parameters: queryParameters(searchParams),
          responses: { '200': json(ok(z.array(searchResultSchema)), 'Matching tracks.'), ...errors(400, 401, 429, 502, 504) },
        },
      },
      '/api/audio/analysis/{trackKey}': {
        get: {
          operationId: 'analysis',
          summary: 'The analysis of a track: stored, or computed from the audio search found.',
          parameters: [trackKeyPath, ...queryParameters(analysisParams), ifNoneMatch],
          responses: { ...analysisOutcome(analysisSchema, 'The analysis.'), ...errors(400, 401, 404, 422, 429, 502, 503, 504) },
        },
      },
      '/api/audio/analysis/{trackKey}/timeline': {
        get: {
          operationId: 'timeline',
          summary: 'Beats, bars and sections of a track (found or computed as for its analysis).',
          parameters: [trackKeyPath, ...queryParameters(analysisParams), ifNoneMatch],
          responses: { ...analysisOutcome(timelineSchema, 'The timeline.'), ...errors(400, 401, 404, 422, 429, 502, 503, 504) },
        },
      },
      '/api/audio/analyses': {
        get: {
          operationId: 'analyses',
          summary: `Stored analyses of up to ${MAX_BATCH_KEYS} keys, in the order asked, null where a key has none. Starts no analysis.`,
          parameters: queryParameters(batchParams),
          responses: { '200': json(ok(z.array(analysisSchema.nullable())), 'One entry per key.'), ...errors(400, 401, 429, 503) },
        },
      },
      '/api/audio/artwork/{trackKey}': {
        get: {
          operationId: 'artwork',
          summary:
            'Cover art of a track. The thumbnailUrl of a search result carries a signature (sig) and needs no key. ' +
            `Only ${SERVED_IMAGE_FORMATS} pictures are served, typed by their bytes; any other stored picture is 404 NOT_FOUND.`,
          security: [{ bearer: [] }, {}],
          parameters: [trackKeyPath, { name: 'sig', in: 'query', required: false, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'The image, with the type its bytes are.',
              content: Object.fromEntries(SERVED_IMAGE_TYPES.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
            },
            ...errors(400, 401, 404, 429),
          },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key (API_KEYS or `npm run apikey -- create`).' } },
      schemas: { Error: jsonSchema(errorSchema, 'output') },
      responses: Object.fromEntries(
        Object.entries(ERROR_MEANINGS).map(([status, description]) => [
          `Error${status}`,
          { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
    },
  };
}

/** This project's version, from the package.json above this file (src or dist). */
export function packageVersion(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
}
