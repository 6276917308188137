import { z } from 'zod';
import { MAX_SPOTIFY_IDS } from '../../analysis/spotify.shape';

/* The response schemas of the /v1 routes (Spotify's shape), published in /api/openapi.json. */

const unit = (description: string) => z.number().min(0).max(1).describe(description);

export const spotifyAudioFeaturesSchema = z
  .object({
    acousticness: unit('Our acousticness descriptor when the registry has it; null otherwise.').nullable(),
    analysis_url: z.string().describe('The audio-analysis of the track in Spotify’s shape (GET /v1/audio-analysis/{id}).'),
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

/** GET /v1/recommendations/available-genre-seeds: Spotify's list of genre seeds. */
export const spotifyGenreSeedsSchema = z
  .object({ genres: z.array(z.string()).describe('Every genre seed_genres takes, in Spotify’s spelling.') })
  .meta({ id: 'SpotifyGenreSeeds', description: 'The genre seeds: the auto-tagger’s tags but its eras and voices.' });

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
          id: z.string().describe('The seed track’s trackKey, or the genre seed as asked for, in Spotify’s spelling.'),
          type: z.enum(['TRACK', 'GENRE']),
          href: z.string().nullable().describe('The seed track’s analysis in the contract’s shape; null for a genre.'),
          initialPoolSize: z.int().min(0).describe('Stored analyses read (within the min_/max_ ranges, and of the seed genres).'),
          afterFilteringSize: z.int().min(0).describe('Of those, the ones that are not seeds.'),
          afterRelinkingSize: z.int().min(0).describe('The same as afterFilteringSize (nothing is relinked).'),
        })
        .meta({ id: 'SpotifyRecommendationSeed', description: 'A seed of the recommendations and the sizes of the pool ranked for it.' }),
    ),
  })
  .meta({ id: 'SpotifyRecommendations', description: 'Spotify’s recommendations object: the tracks nearest first, and the seeds.' });

const span = {
  start: z.number().min(0).describe('Seconds from the start of the file.'),
  duration: z.number().min(0).describe('Seconds.'),
  confidence: unit('How sure the engine is of it.'),
};
const spotifyIntervalSchema = z.object(span).meta({ id: 'SpotifyTimeInterval', description: 'A bar, beat or tatum.' });
const twelve = (description: string) => z.array(z.number()).length(12).describe(description);

export const spotifyAudioAnalysisSchema = z
  .object({
    meta: z.object({
      analyzer_version: z.string().describe('The engine build (trackgraph-engine/<version>, and its model method when models ran).'),
      platform: z.literal('trackgraph'),
      detailed_status: z.literal('OK'),
      status_code: z.literal(0),
      timestamp: z.int().min(0).describe('When it was analysed, Unix seconds.'),
      input_process: z.string().describe('How the audio was read: mono, 44.1 kHz, analysed at 22.05 kHz.'),
    }),
    track: z.object({
      num_samples: z.int().min(0).describe('duration × analysis_sample_rate.'),
      duration: z.number().min(0).describe('Seconds (the whole file).'),
      sample_md5: z.literal('').describe('Not computed: empty.'),
      offset_seconds: z.number().min(0).describe('Start of the analysed window, seconds.'),
      window_seconds: z.number().min(0).describe('Length of the analysed window, seconds (0: the timeline is empty).'),
      analysis_sample_rate: z.literal(22050),
      analysis_channels: z.literal(1),
      end_of_fade_in: z.number().describe('Not measured: 0.'),
      start_of_fade_out: z.number().describe('Not measured: the duration.'),
      loudness: z.number().describe('Integrated loudness, LUFS.'),
      tempo: z.number().min(0),
      tempo_confidence: unit('A calibrated probability that the tempo is the beat listeners tap (docs/FEATURES.md, "Confidences").'),
      tempo_alternatives: z
        .array(z.object({ tempo: z.number().min(0), confidence: unit('Its probability of being the tapped level (docs/FEATURES.md, "Tempo alternatives").') }))
        .describe('Not Spotify’s (additive): the runner-up tempi, most probable first; empty for analyses older than engine 11.'),
      time_signature: z.int().min(1),
      time_signature_confidence: unit(''),
      key: z.int().min(-1).max(11).describe('-1 when no key was detected.'),
      key_confidence: unit(''),
      mode: z.int().min(0).max(1),
      mode_confidence: unit(''),
      codestring: z.literal('').describe('No fingerprints: empty.'),
      code_version: z.literal(0),
      echoprintstring: z.literal(''),
      echoprint_version: z.literal(0),
      synchstring: z.literal(''),
      synch_version: z.literal(0),
      rhythmstring: z.literal(''),
      rhythm_version: z.literal(0),
    }),
    bars: z.array(spotifyIntervalSchema),
    beats: z.array(spotifyIntervalSchema),
    tatums: z.array(spotifyIntervalSchema).describe('Two per beat (the beats halved).'),
    sections: z.array(
      z
        .object({
          ...span,
          loudness: z.number().describe('Integrated loudness of the section, LUFS.'),
          tempo: z.number().min(0),
          tempo_confidence: unit(''),
          key: z.int().min(-1).max(11),
          key_confidence: unit(''),
          mode: z.int().min(0).max(1),
          mode_confidence: unit(''),
          time_signature: z.int().min(1).describe('The track’s.'),
          time_signature_confidence: unit(''),
        })
        .meta({ id: 'SpotifySection', description: 'A section: a span of similar level.' }),
    ),
    segments: z
      .array(
        z
          .object({
            ...span,
            loudness_start: z.number().max(0).describe('dBFS at the start (floored at -60).'),
            loudness_max: z.number().max(0).describe('Loudest level, dBFS.'),
            loudness_max_time: z.number().min(0).describe('Seconds from the segment’s start to its loudest level.'),
            loudness_end: z.number().max(0).describe('dBFS at the end.'),
            pitches: twelve('Chroma, C first, the strongest 1.'),
            timbre: twelve('Mel-frequency cepstral coefficients, our own basis (docs/FEATURES.md, "Segments").'),
          })
          .meta({ id: 'SpotifySegment', description: 'A segment: from one onset to the next.' }),
      )
      .describe('Empty for analyses older than engine 11 and for analyses another server made.'),
  })
  .meta({ id: 'SpotifyAudioAnalysis', description: 'Spotify’s audio-analysis object (docs/FEATURES.md, "Spotify’s audio-analysis shape").' });
