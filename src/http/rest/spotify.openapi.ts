import { z } from 'zod';
import type { ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { MAX_SPOTIFY_IDS } from '../../analysis/spotify.shape';
import { recommendationsParams, spotifyIdPath, spotifyIdsQuery } from './spotify.params';
import {
  spotifyAudioAnalysisSchema,
  spotifyAudioFeaturesListSchema,
  spotifyAudioFeaturesSchema,
  spotifyErrorSchema,
  spotifyGenreSeedsSchema,
  spotifyPendingSchema,
  spotifyRecommendationsSchema,
} from './spotify.schemas';

/* The /v1 routes (Spotify's shape) in the OpenAPI document; their failures have their own schema. */

const MEANINGS: Record<number, string> = {
  400: 'A parameter or id is missing or malformed (an ISRC is 12 characters: 2 letters, 3 letters or digits, 7 digits).',
  401: 'Missing, unknown, revoked or expired API key (WWW-Authenticate: Bearer).',
  404: 'No track has this id (recommendations: a seed has no stored analysis).',
  422: 'The audio could not be decoded, or no source has audio of the track.',
  429: 'Rate limited (Retry-After).',
  500: 'Internal error.',
  502: 'No source could answer.',
  503: 'The store is unreachable (Retry-After).',
  504: 'A source or the analysis took too long.',
};

const failures = (...statuses: number[]): ZodOpenApiResponsesObject =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: MEANINGS[s]!, content: { 'application/json': { schema: spotifyErrorSchema } } }]));

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

export const SPOTIFY_TAG = {
  name: 'spotify',
  description: 'Spotify’s shape under /v1, for clients written against Spotify’s Web API (docs/API.md, "Spotify’s shape: /v1"). Errors are `{error: {status, message}}`.',
};

export function spotifyPaths(): ZodOpenApiPathsObject {
  return {
    '/v1/audio-features/{id}': {
      get: {
        operationId: 'spotifyAudioFeatures',
        tags: ['spotify'],
        summary: 'Audio features of one track in Spotify’s shape: stored, or computed from the audio its id leads to.',
        description: 'An id is a trackKey, `isrc:<ISRC>` (looked up at Deezer and MusicBrainz when enabled) or `spotify:track:<id>`. As the contract’s analysis route, an analysis not stored yet is started, and 202 with Retry-After answers while it runs.',
        requestParams: { path: spotifyIdPath },
        responses: {
          '200': json(spotifyAudioFeaturesSchema, 'The audio features.'),
          '202': { ...json(spotifyPendingSchema, 'Being analysed.'), headers: z.object({ 'Retry-After': z.int().min(1).meta({ description: 'Seconds.' }) }) },
          ...failures(400, 401, 404, 422, 429, 500, 502, 503, 504),
        },
      },
    },
    '/v1/audio-analysis/{id}': {
      get: {
        operationId: 'spotifyAudioAnalysis',
        tags: ['spotify'],
        summary: 'Audio analysis of one track in Spotify’s shape: bars, beats, tatums, sections and segments of the analysed window.',
        description: 'Ids, analysis on demand and 202 as for /v1/audio-features/{id}.',
        requestParams: { path: spotifyIdPath },
        responses: {
          '200': json(spotifyAudioAnalysisSchema, 'The audio analysis.'),
          '202': { ...json(spotifyPendingSchema, 'Being analysed.'), headers: z.object({ 'Retry-After': z.int().min(1).meta({ description: 'Seconds.' }) }) },
          ...failures(400, 401, 404, 422, 429, 500, 502, 503, 504),
        },
      },
    },
    '/v1/audio-features': {
      get: {
        operationId: 'spotifyAudioFeaturesMany',
        tags: ['spotify'],
        summary: `Audio features of up to ${MAX_SPOTIFY_IDS} tracks in Spotify’s shape, in the order asked, null where an id has no stored analysis. Starts no analysis.`,
        requestParams: { query: spotifyIdsQuery },
        responses: { '200': json(spotifyAudioFeaturesListSchema, 'One entry per id.'), ...failures(400, 401, 429, 500, 502, 503, 504) },
      },
    },
    '/v1/recommendations': {
      get: {
        operationId: 'spotifyRecommendations',
        tags: ['spotify'],
        summary: 'Stored analyses nearest to targets (given, or the seeds’ mean) within the min_/max_ ranges, nearest first; the seeds excluded. Starts no analysis.',
        description: 'Every top-level descriptor, tempo, key, mode, loudness, time_signature and duration_ms has min_, max_ and target_. At least one seed (a track or a genre) or one of those is needed. The distance is in docs/API.md, "Spotify’s shape: /v1".',
        requestParams: { query: recommendationsParams },
        responses: { '200': json(spotifyRecommendationsSchema, 'The recommendations.'), ...failures(400, 401, 404, 429, 500, 503) },
      },
    },
    '/v1/recommendations/available-genre-seeds': {
      get: {
        operationId: 'spotifyAvailableGenreSeeds',
        tags: ['spotify'],
        summary: 'The genre seeds seed_genres takes: the auto-tagger’s tags but its eras and voices, in Spotify’s spelling.',
        responses: { '200': json(spotifyGenreSeedsSchema, 'The genre seeds.'), ...failures(401, 429, 500) },
      },
    },
  };
}
