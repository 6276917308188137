import { z } from 'zod';
import { DEFAULT_RECOMMENDATIONS, GENRE_TOP, MAX_RECOMMENDATIONS, MAX_SEEDS, TUNABLE, type Tuning } from '../../analysis/recommendations.service';
import { MAX_SPOTIFY_IDS } from '../../analysis/spotify.shape';

/*
 * The /v1 routes' parameters (Spotify's shape) as zod schemas: the routes parse with them and
 * /api/openapi.json publishes them.
 */

export const spotifyIdPath = z.object({
  id: z.string().max(200).meta({
    description:
      'A trackKey (16 hex), `isrc:<ISRC>` (12 characters, e.g. isrc:GBAYE7300100), or a Spotify track id (22 base-62 characters), bare, as `spotify:track:<id>` or in a track’s open.spotify.com URL, percent-encoded (resolved where MusicBrainz relates a recording to that Spotify track, when MusicBrainz is enabled).',
    example: 'bc24aaa5a97c70ed',
  }),
});

export const spotifyIdsQuery = z.object({
  ids: z
    .string({ error: 'ids must be a single comma-separated string' })
    .transform((v) => v.split(',').map((k) => k.trim()).filter((k) => k.length > 0))
    .pipe(
      z
        .array(z.string())
        .min(1, 'ids must name at least one id')
        .max(MAX_SPOTIFY_IDS, `at most ${MAX_SPOTIFY_IDS} ids per request`),
    )
    .meta({
      description: `Up to ${MAX_SPOTIFY_IDS} ids (trackKeys, isrc:<ISRC>, Spotify track ids bare, as spotify:track:<id> or in open.spotify.com track URLs), comma-separated; the answer keeps their order.`,
      example: 'bc24aaa5a97c70ed,isrc:GBAYE7300100',
    }),
});

const tunableNumber = (name: string) =>
  z.coerce
    .number<number>({ error: `${name} must be a number` })
    .refine((v) => Number.isFinite(v), `${name} must be a finite number`)
    .optional();

/** min_<attribute>, max_<attribute> and target_<attribute> for every tunable attribute. */
const tuningShape = Object.fromEntries(
  TUNABLE.flatMap(({ name }) =>
    (['min', 'max', 'target'] as const).map((bound) => [
      `${bound}_${name}`,
      tunableNumber(`${bound}_${name}`).meta({
        description: bound === 'target' ? `The ${name} to be near (default: the seeds’ mean).` : `${bound === 'min' ? 'Lowest' : 'Highest'} ${name} allowed (inclusive).`,
      }),
    ]),
  ),
) as Record<string, z.ZodOptional<z.ZodType<number>>>;

const TUNING_PARAM = /^(min|max|target)_(.+)$/;

/** GET /v1/recommendations: seeds, limit and the tunable attributes, in Spotify's names (as documented). */
export const recommendationsParams = z
  .object({
    seed_tracks: z
      .string({ error: 'seed_tracks must be a single comma-separated string' })
      .transform((v) => v.split(',').map((k) => k.trim()).filter((k) => k.length > 0))
      .pipe(z.array(z.string()).max(MAX_SEEDS, `at most ${MAX_SEEDS} seed tracks`))
      .optional()
      .meta({ description: `Up to ${MAX_SEEDS} trackKeys of stored analyses, comma-separated: the targets not given are their mean.`, example: 'bc24aaa5a97c70ed' }),
    seed_genres: z
      .string({ error: 'seed_genres must be a single comma-separated string' })
      .transform((v) => v.split(',').map((k) => k.trim()).filter((k) => k.length > 0))
      .pipe(z.array(z.string()).max(MAX_SEEDS, `at most ${MAX_SEEDS} seed genres`))
      .optional()
      .meta({
        description: `Genre seeds (GET /v1/recommendations/available-genre-seeds), comma-separated: the tracks answered have one of them among their ${GENRE_TOP} most probable tags (only analyses the trained models made have tags). Up to ${MAX_SEEDS} seeds, tracks and genres together.`,
        example: 'jazz,hip-hop',
      }),
    limit: z.coerce
      .number<number>({ error: 'limit must be a number' })
      .int(`limit must be a whole number from 1 to ${MAX_RECOMMENDATIONS}`)
      .min(1, `limit must be a whole number from 1 to ${MAX_RECOMMENDATIONS}`)
      .max(MAX_RECOMMENDATIONS, `limit must be a whole number from 1 to ${MAX_RECOMMENDATIONS}`)
      .default(DEFAULT_RECOMMENDATIONS)
      .meta({ description: `Tracks answered: 1–${MAX_RECOMMENDATIONS}, default ${DEFAULT_RECOMMENDATIONS}.`, example: 20 }),
    ...tuningShape,
  });

/** The same, parsed: other parameters are ignored (market …) but for an unknown min_/max_/target_ attribute. */
export const recommendationsQuery = recommendationsParams
  .catchall(z.unknown())
  .transform((q, ctx) => {
    const tuning: Required<Tuning> = { min: {}, max: {}, target: {} };
    for (const [param, value] of Object.entries(q)) {
      const m = TUNING_PARAM.exec(param);
      if (!m) continue;
      if (!Object.hasOwn(tuningShape, param)) {
        ctx.addIssue({ code: 'custom', message: `${param}: ${m[2]} is not a tunable attribute (${TUNABLE.map((t) => t.name).join(', ')})`, path: [param] });
        return z.NEVER;
      }
      if (typeof value === 'number') tuning[m[1] as 'min' | 'max' | 'target'][m[2]!] = value;
    }
    return { seedTracks: q.seed_tracks ?? [], seedGenres: q.seed_genres ?? [], limit: q.limit, tuning };
  });
