import { z } from 'zod';
import { MOODS, TOP_LEVEL, exampleDescriptors, type Descriptor, type DescriptorName, type MoodName } from './descriptors';
import { TAGGER_TAGS } from './tags';

/*
 * The contract's values with the ranges this service holds them to, as zod schemas. They are
 * written once and serve twice: the REST edge publishes them in /api/openapi.json (and a test
 * checks real answers against that document), and every record a source hands in (another
 * server's analysis, a catalogue's search result, a file's tags) is checked against them before
 * anything of it is stored or served. The contract states no bounds beyond the 0–1 descriptors
 * of its sample; the bounds below are the physical or documented ones, so a record outside them
 * is wrong rather than unusual.
 */

/** Beats per minute: 0 where no pulse was found (silence); no played or tapped pulse is faster than 500. */
export const TEMPO_MAX = 500;
/** Beats per bar: 1 (a free pulse) to 16 (the longest bars in notated music, e.g. 16/8). */
export const TIME_SIGNATURE_MAX = 16;
/** The longest recording a record may describe: one day, ms. */
export const DURATION_MAX_MS = 24 * 3600 * 1000;
/**
 * Integrated loudness of digital audio, LUFS: EBU R128 gates at −70 and silence is reported below
 * it; K-weighted full-scale material stays under about +3.
 */
export const LOUDNESS_RANGE = { min: -100, max: 10 } as const;
/** Longest artist, title or album a record may carry, characters. */
export const NAME_MAX_LENGTH = 1024;
/** Longest URL a record may carry, characters. */
export const URL_MAX_LENGTH = 2048;

/** C0 control characters and DEL: never part of a name, and a way to forge log lines or terminal output. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/;

/** An artist, title or album: not blank, of bounded length, without control characters. */
export const nameSchema = z
  .string()
  .max(NAME_MAX_LENGTH)
  .refine((v) => v.trim() !== '', 'must not be blank')
  .refine((v) => !CONTROL.test(v), 'must not contain control characters');

/** An absolute http(s) URL: the only kind a client may be handed to load (no javascript:, data:, file:). */
export const httpUrlSchema = z.url({ protocol: /^https?$/ }).max(URL_MAX_LENGTH);

export const trackKeySchema = z
  .string()
  .regex(/^[0-9a-f]{16}$/)
  .meta({
    id: 'TrackKey',
    description: 'First 16 hex characters of sha256(lower(trim(artist)) + ":" + lower(trim(track))), after Unicode NFC.',
    example: 'bc24aaa5a97c70ed',
  });

/** A descriptor's value: a number within its registry range. */
const rangeOf = (d: Descriptor) => z.number().min(d.range.min).max(d.range.max).describe(d.description);

/** One schema per descriptor of a group, by name, in the registry's order. */
function descriptorShape<Name extends string>(list: readonly Descriptor[]): Record<Name, z.ZodNumber> {
  // A descriptor added since analyses were first stored is optional (registry: `since`); typed as
  // the others, since every analysis this engine makes has it.
  return Object.fromEntries(list.map((d) => [d.name, d.since === undefined ? rangeOf(d) : rangeOf(d).optional()])) as unknown as Record<Name, z.ZodNumber>;
}

export const moodSchema = z
  .object(descriptorShape<MoodName>(MOODS))
  .meta({ id: 'Mood', description: 'Mood scores, each in [0, 1].', example: exampleDescriptors().mood });

const tempo = z.number().min(0).max(TEMPO_MAX);
const pitchClass = z.int().min(0).max(11);
const modeFlag = z.int().min(0).max(1);
const loudness = z.number().min(LOUDNESS_RANGE.min).max(LOUDNESS_RANGE.max);

/** The measured fields the contract's analysis object and a stored analysis share, with their ranges. */
const measured = {
  tempo: tempo.describe('Beats per minute; 0 when no pulse was found.'),
  key: pitchClass.describe('Pitch class 0–11 (0 = C, 9 = A), of the whole file (docs/FEATURES.md, "Key and mode").'),
  mode: modeFlag.describe('1 = major, 0 = minor.'),
  timeSignature: z.int().min(1).max(TIME_SIGNATURE_MAX).describe('Beats per bar.'),
  ...descriptorShape<DescriptorName>(TOP_LEVEL),
  mood: moodSchema,
};

const durationMs = z.int().min(0).max(DURATION_MAX_MS);

export const analysisSchema = z
  .object({
    artist: nameSchema,
    trackKey: trackKeySchema,
    trackName: nameSchema,
    duration_ms: durationMs,
    ...measured,
    keyString: z.string().describe('"<note> <major|minor>".'),
    meta: z.object({ artist: nameSchema, track: nameSchema }).describe('The artist and title again, as the contract duplicates them.'),
  })
  .meta({
    id: 'TrackAnalysis',
    description: 'The analysis of one track (the contract object). docs/FEATURES.md says how each field is measured.',
    example: {
      artist: 'Pink Floyd',
      trackKey: 'bc24aaa5a97c70ed',
      trackName: 'Money',
      duration_ms: 382000,
      tempo: 122.4,
      key: 11,
      mode: 0,
      timeSignature: 7,
      ...exampleDescriptors(),
      keyString: 'B minor',
      meta: { artist: 'Pink Floyd', track: 'Money' },
    },
  });

export const searchResultSchema = z
  .object({
    trackName: nameSchema.describe('Title of the track.'),
    artist: nameSchema.describe('Artist of the track.'),
    thumbnailUrl: httpUrlSchema.describe(
      'Cover-art URL (http or https), loadable by an <img> without a key: the source’s picture, or a placeholder generated for the track (a PNG) when it has none.',
    ),
    trackKey: trackKeySchema,
    match_score: z.number().min(0).max(1).describe('How closely the result matches the query, in [0, 1]; larger is closer.'),
  })
  .meta({
    id: 'SearchResult',
    description: 'A track matching a search.',
    example: {
      trackName: 'Money',
      artist: 'Pink Floyd',
      thumbnailUrl: 'http://127.0.0.1:4000/api/audio/artwork/bc24aaa5a97c70ed?sig=Yk3Jf0v2Qm8',
      trackKey: 'bc24aaa5a97c70ed',
      match_score: 1,
    },
  });

const interval = z
  .object({
    start: z.number().min(0).max(DURATION_MAX_MS / 1000).describe('Seconds from the start of the file.'),
    duration: z.number().min(0).max(DURATION_MAX_MS / 1000).describe('Seconds.'),
    confidence: z.number().min(0).max(1).describe('How sure the engine is of it, in [0, 1].'),
  })
  .meta({ id: 'TimeInterval', description: 'A span of the file, with how sure the engine is of it.' });

/** Beats, bars and sections: the timeline of a stored analysis. */
export const timelineSchema = z.object({
  beats: z.array(interval),
  bars: z.array(interval),
  sections: z.array(
    interval
      .extend({
        loudness: loudness.describe('Integrated loudness of the section, LUFS.'),
        tempo: tempo.describe('Beats per minute in the section.'),
        tempoConfidence: z.number().min(0).max(1),
        key: pitchClass.describe('Pitch class 0–11 of the section.'),
        keyConfidence: z.number().min(0).max(1),
        mode: modeFlag.describe('1 = major, 0 = minor.'),
        modeConfidence: z.number().min(0).max(1),
      })
      .meta({ id: 'Section', description: 'A section: a span of similar level, with its own loudness, tempo, key and mode.' }),
  ),
});

/** Fields a stored analysis holds beyond the contract object (another server of this project may send them). */
export const loudnessSchema = loudness;
export const confidenceSchema = z.object({
  tempo: z.number().min(0).max(1),
  key: z.number().min(0).max(1),
  mode: z.number().min(0).max(1),
  timeSignature: z.number().min(0).max(1),
});
const engineText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((v) => !CONTROL.test(v), 'must not contain control characters');
/** The engine build another server names; stored behind a prefix naming the source ("upstream:…"). */
export const engineSchema = engineText(200);

/** A4's frequency in the recording, Hz (src/core/types.ts AudioFeatures.tuningHz; the engine's within a quarter-tone of 440). */
export const tuningHzSchema = z.number().min(400).max(480);

/** The MSD auto-tagger's tags with their probabilities (src/core/types.ts TagScore): at most TAGGER_TAGS. */
export const tagScoresSchema = z
  .array(
    z.object({
      name: engineText(64).describe('The tag, as the tagger names it (e.g. "rock", "female vocalists", "80s").'),
      probability: z.number().min(0).max(1).describe('The tagger’s probability of the tag, 0–1.'),
    }),
  )
  .max(TAGGER_TAGS);

/** A stored analysis (src/core/types.ts StoredAnalysis), every field in range. */
export const storedAnalysisSchema = z.object({
  trackKey: trackKeySchema,
  artist: nameSchema,
  trackName: nameSchema,
  features: z.object({
    durationMs: durationMs,
    ...measured,
    loudness,
    confidence: confidenceSchema,
    timeline: timelineSchema,
    tuningHz: tuningHzSchema.optional(),
    engine: engineText(256),
  }),
  analysedAt: z.iso.datetime(),
  source: z.string().min(1),
});

/** "tempo: Too big: expected number to be <=500; mood.happy: …", for a log line or an error message. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const shown = error.issues.slice(0, max).map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`);
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return shown.join('; ') + more;
}
