import { z } from 'zod';
import { MAX_SPOTIFY_IDS } from '../../analysis/spotify.shape';

/* The response schemas of the /v1 routes (Spotify's shape), published in /api/openapi.json. */

const unit = (description: string) => z.number().min(0).max(1).describe(description);

export const spotifyAudioFeaturesSchema = z
  .object({
    acousticness: unit('Our acousticness descriptor when the registry has it; null otherwise.').nullable(),
    analysis_url: z.string().describe('The time-resolved view of the analysis (beats, bars, sections).'),
    danceability: unit('Danceability, 0–1 (our scale: docs/FEATURES.md).'),
    duration_ms: z.int().min(0).describe('Duration of the whole file, ms.'),
    energy: unit('Energy, 0–1 (our scale).'),
    id: z.string().describe('The trackKey.'),
    instrumentalness: unit('Absence of spoken voice, 0–1 (our scale).'),
    key: z.int().min(-1).max(11).describe('Pitch class 0–11 (0 = C); -1 when no key was detected.'),
    liveness: unit('Liveness, 0–1 (our scale).'),
    loudness: z.number().describe('Integrated loudness, LUFS (EBU R128): dB relative to full scale, as Spotify’s.'),
    mode: z.int().min(0).max(1).describe('1 major, 0 minor.'),
    speechiness: unit('Speechiness, 0–1.'),
    tempo: z.number().min(0).describe('Beats per minute.'),
    time_signature: z.int().min(1).describe('Beats per bar.'),
    track_href: z.string().describe('The analysis in the contract’s shape.'),
    type: z.literal('audio_features'),
    uri: z.string().describe('trackgraph:track:<trackKey>.'),
    valence: unit('Valence, 0–1 (our scale).'),
  })
  .meta({ id: 'SpotifyAudioFeatures', description: 'Spotify’s audio-features object, field for field (docs/FEATURES.md, "Spotify’s audio-features shape").' });

export const spotifyAudioFeaturesListSchema = z
  .object({ audio_features: z.array(spotifyAudioFeaturesSchema.nullable()).max(MAX_SPOTIFY_IDS) })
  .meta({ id: 'SpotifyAudioFeaturesList', description: 'One entry per id, in the order asked; null where an id has no stored analysis.' });

export const spotifyErrorSchema = z
  .object({
    error: z.object({
      status: z.int().min(400).max(599).describe('The HTTP status.'),
      message: z.string().describe('What went wrong, for a person to read.'),
    }),
  })
  .meta({ id: 'SpotifyError', description: 'Spotify’s error object.' });

export const spotifyPendingSchema = z
  .object({
    status: z.enum(['queued', 'processing']),
    queue_position: z.int().min(0).describe('Analyses ahead of this one.'),
    retry_after: z.int().min(1).describe('Seconds to wait before asking again.'),
  })
  .meta({ id: 'SpotifyPending', description: 'Being analysed: ask again after retry_after seconds.' });

export const spotifyRecommendationsSchema = z
  .object({
    tracks: z.array(
      z
        .object({
          id: z.string().describe('The trackKey.'),
          name: z.string(),
          artists: z.array(z.object({ name: z.string(), type: z.literal('artist') })),
          duration_ms: z.int().min(0),
          href: z.string().describe('The analysis in the contract’s shape.'),
          uri: z.string().describe('trackgraph:track:<trackKey>.'),
          type: z.literal('track'),
        })
        .meta({ id: 'SpotifyTrack', description: 'A recommended track: the fields of Spotify’s track object this server can fill.' }),
    ),
    seeds: z.array(
      z
        .object({
          id: z.string().describe('The seed’s trackKey.'),
          type: z.literal('TRACK'),
          href: z.string(),
          initialPoolSize: z.int().min(0).describe('Stored analyses read (within the min_/max_ ranges).'),
          afterFilteringSize: z.int().min(0).describe('Of those, the ones that are not seeds.'),
          afterRelinkingSize: z.int().min(0).describe('The same as afterFilteringSize (nothing is relinked).'),
        })
        .meta({ id: 'SpotifyRecommendationSeed', description: 'A seed of the recommendations and the sizes of the pool ranked for it.' }),
    ),
  })
  .meta({ id: 'SpotifyRecommendations', description: 'Spotify’s recommendations object: the tracks nearest first, and the seeds.' });
