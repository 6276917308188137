import { ArgsType, Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DEFAULT_PATH_STEPS, MAX_PATH_STEPS } from '../../analysis/sound.service';
import {
  DEFAULT_PAGE,
  DEFAULT_SIMILAR,
  MAX_PAGE,
  MAX_SIMILAR,
  MAX_TAG_CONDITIONS,
  TRACK_ORDER_FIELD_NAMES,
  type TrackOrderField as TrackOrderFieldName,
} from '../../analysis/browse.service';
import type { TracksFilter } from '../../analysis/store/tracks.query';
import { DESCRIPTORS, orderNameOf, pathOf } from '../../core/descriptors';
import { EMBEDDINGS_SINCE } from '../../core/sound';
import { TAGGER_TAGS } from '../../core/tags';
import { TrackAnalysis } from './analysis.types';

/*
 * Browsing as GraphQL types: tracks() is a Relay connection over stored analyses, similar() a
 * ranked list. Inputs carry the service's names, so resolvers hand them over unchanged.
 */

export const TrackOrderField = Object.fromEntries(TRACK_ORDER_FIELD_NAMES.map((k) => [k, k])) as {
  [K in TrackOrderFieldName]: K;
};

const FIXED_ORDER_DESCRIPTIONS: Record<string, string> = {
  ANALYSED_AT: 'The order analyses were stored in.',
  TEMPO: 'Beats per minute.',
  DURATION_MS: 'Duration of the file.',
  LOUDNESS: 'Integrated loudness (LUFS).',
  TAG: "The probability of the tag `orderBy.tag` names (the tagger's, as `tags` lists them). Only the analyses that have it: those Essentia's models made.",
};

registerEnumType(TrackOrderField, {
  name: 'TrackOrderField',
  description:
    'What tracks() orders by. ANALYSED_AT is the order analyses were stored in; TAG a tag’s probability (orderBy.tag names it); every other value is the field of that name.',
  valuesConfig: Object.fromEntries(
    TRACK_ORDER_FIELD_NAMES.map((name) => {
      const descriptor = DESCRIPTORS.find((d) => orderNameOf(d) === name);
      return [name, { description: descriptor ? `${pathOf(descriptor)}: ${descriptor.description}` : FIXED_ORDER_DESCRIPTIONS[name] }];
    }),
  ),
});

export enum OrderDirection {
  ASC = 'ASC',
  DESC = 'DESC',
}

registerEnumType(OrderDirection, {
  name: 'OrderDirection',
  description: 'Which way an order runs.',
  valuesConfig: { ASC: { description: 'Smallest first.' }, DESC: { description: 'Largest (or newest) first.' } },
});

@InputType({ description: 'An inclusive range; either bound may be left out.' })
export class FloatRange {
  @Field(() => Float, { nullable: true, description: 'The smallest value included.' })
  min?: number | null;

  @Field(() => Float, { nullable: true, description: 'The largest value included.' })
  max?: number | null;
}

/** Ranges of the mood scores: one field per mood browse covers (declared below from the registry). */
@InputType({ description: 'Ranges of the mood scores.' })
export class MoodFilter {}

@InputType({ description: 'A condition on one of the auto-tagger’s tags: every bound given must hold.' })
export class TagFilter {
  @Field(() => String, { description: 'One of taggerTags, in any case ("hip-hop" is "Hip-Hop").' })
  name!: string;

  @Field(() => Float, { nullable: true, description: 'The lowest probability of the tag allowed (inclusive, 0–1).' })
  min?: number | null;

  @Field(() => Float, { nullable: true, description: 'The highest probability of the tag allowed (inclusive, 0–1).' })
  max?: number | null;

  @Field(() => Int, { nullable: true, description: `The tag is among the analysis’s n most probable tags: 1–${TAGGER_TAGS}.` })
  top?: number | null;
}

@InputType({ description: 'Which stored analyses tracks() returns: every condition given must hold.' })
export class TrackFilter {
  @Field(() => FloatRange, { nullable: true, description: 'Beats per minute.' })
  tempo?: FloatRange | null;

  @Field(() => FloatRange, { nullable: true, description: 'Milliseconds.' })
  durationMs?: FloatRange | null;

  @Field(() => FloatRange, { nullable: true, description: 'LUFS.' })
  loudness?: FloatRange | null;

  @Field(() => MoodFilter, { nullable: true, description: 'Ranges of the mood scores.' })
  mood?: MoodFilter | null;

  @Field(() => [Int], { nullable: true, description: 'Any of these pitch classes (0 = C … 11 = B).' })
  key?: number[] | null;

  @Field(() => Int, { nullable: true, description: '1 = major, 0 = minor.' })
  mode?: number | null;

  @Field(() => [Int], { nullable: true, description: 'Any of these beats-per-bar values.' })
  timeSignature?: number[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'Substring of the artist, ignoring case, accents and compatibility forms ("beyonce" finds "Beyoncé").',
  })
  artist?: string | null;

  @Field(() => String, { nullable: true, description: 'Substring of the title, ignoring case, accents and compatibility forms.' })
  trackName?: string | null;

  @Field(() => [TagFilter], {
    nullable: true,
    description: `Conditions on the auto-tagger’s tags (1–${MAX_TAG_CONDITIONS}), every one of which must hold. Only analyses made with the trained models (method \`models:…\`) carry tags: no other analysis matches.`,
  })
  tags?: TagFilter[] | null;
}

// The descriptors browse covers, as range filters: top-level ones on TrackFilter, moods on MoodFilter.
for (const d of DESCRIPTORS) {
  if (!d.browse) continue;
  const description = `Range of ${pathOf(d)}: ${d.description}`;
  Field(() => FloatRange, { nullable: true, description })(d.group === 'mood' ? MoodFilter.prototype : TrackFilter.prototype, d.name);
}

@InputType({ description: 'An order of tracks(): a field and a direction.' })
export class TrackOrder {
  @Field(() => TrackOrderField, { description: 'What to order by.' })
  field!: TrackOrderFieldName;

  @Field(() => OrderDirection, { defaultValue: OrderDirection.DESC, description: 'Which way (default DESC).' })
  direction!: OrderDirection;

  @Field(() => String, { nullable: true, description: 'With field TAG, and only with it: the tag (any case; taggerTags lists them) whose probability orders the tracks.' })
  tag?: string | null;
}

@ArgsType()
export class TracksArgs {
  @Field(() => TrackFilter, { nullable: true, description: 'Which stored analyses: every condition given must hold. Default: all.' })
  filter?: TrackFilter | null;

  @Field(() => TrackOrder, { nullable: true, description: 'Default: ANALYSED_AT DESC (newest first). Ties are broken by storage order.' })
  orderBy?: TrackOrder | null;

  @Field(() => Int, { nullable: true, description: `Page size, paging forward: 1–${MAX_PAGE}, default ${DEFAULT_PAGE}. Not with last.` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'endCursor of the previous page (same filter and orderBy): the tracks after it.' })
  after?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: `Page size, paging backward: the last 1–${MAX_PAGE} tracks (before \`before\`, or of the whole order), in the same order. Not with first.`,
  })
  last?: number | null;

  @Field(() => String, { nullable: true, description: 'startCursor of the following page (same filter and orderBy): the tracks before it. With last.' })
  before?: string | null;
}

export enum SimilarityBasis {
  DESCRIPTORS = 'DESCRIPTORS',
  SOUND = 'SOUND',
}

registerEnumType(SimilarityBasis, {
  name: 'SimilarityBasis',
  description: 'What makes two tracks near (docs/SIMILARITY.md).',
  valuesConfig: {
    DESCRIPTORS: { description: 'A weighted distance over tempo, key, mode, the descriptors and moods (docs/API.md, "Similarity").' },
    SOUND: { description: `How they sound: the cosine distance of their sound embeddings (timbre, rhythm, tonal colour; the tagger’s layer with MODELS_DIR). Needs analyses that have them (${EMBEDDINGS_SINCE}).` },
  },
});

@ArgsType()
export class SimilarArgs {
  @Field(() => String, { description: 'A stored analysis’s key.' })
  trackKey!: string;

  @Field(() => Int, { nullable: true, description: `How many: 1–${MAX_SIMILAR}, default ${DEFAULT_SIMILAR}.` })
  first?: number | null;

  @Field(() => SimilarityBasis, { defaultValue: SimilarityBasis.DESCRIPTORS, description: 'What makes tracks near: DESCRIPTORS (the default) or SOUND.' })
  by!: SimilarityBasis;

  @Field(() => Boolean, { defaultValue: false, description: "Leave out the tracks of the asked track's own artist (names compared without case, accents or spacing)." })
  otherArtists!: boolean;
}

@ArgsType()
export class SoundPathArgs {
  @Field(() => String, { description: 'The stored track the path starts at.' })
  from!: string;

  @Field(() => String, { description: 'The stored track the path ends at.' })
  to!: string;

  @Field(() => Int, { nullable: true, description: `Tracks between the two: 0–${MAX_PATH_STEPS}, default ${DEFAULT_PATH_STEPS}.` })
  steps?: number | null;
}

@ObjectType({ description: 'A track of a path by sound, with how far it is from the track before it.' })
export class PathStep {
  @Field(() => Float, { description: 'Cosine distance of its sound embedding from the step before (0 for the first): 0 the same sound, 1 unrelated.' })
  distance!: number;

  @Field(() => TrackAnalysis, { description: 'The track.' })
  track!: TrackAnalysis;
}

@ObjectType({ description: 'A track of a page, with its position (cursor) in the order.' })
export class TrackEdge {
  @Field(() => String, { description: 'Pass as `after` to continue after this track, or as `before` for the tracks before it.' })
  cursor!: string;

  @Field(() => TrackAnalysis, { description: 'The track.' })
  node!: TrackAnalysis;
}

@ObjectType({
  description:
    'Relay page information. Paging forward (first/after), hasPreviousPage is always false; paging backward (last/before), hasNextPage is always false.',
})
export class PageInfo {
  @Field(() => Boolean, { description: 'Whether tracks follow this page (paging forward).' })
  hasNextPage!: boolean;

  @Field(() => Boolean, { description: 'Whether tracks precede this page (paging backward).' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'The first edge\'s cursor; null for an empty page.' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'The last edge\'s cursor; null for an empty page.' })
  endCursor!: string | null;
}

@ObjectType({ description: 'A page of stored analyses.' })
export class TrackConnection {
  @Field(() => [TrackEdge], { description: 'The tracks of the page, in order.' })
  edges!: TrackEdge[];

  @Field(() => PageInfo, { description: 'Whether more pages follow or precede, and the cursors to reach them.' })
  pageInfo!: PageInfo;

  /** The validated filter, for totalCount (not a GraphQL field). */
  filter!: TracksFilter;
}

@ObjectType({ description: 'A stored track near another, by descriptors or by sound.' })
export class SimilarTrack {
  @Field(() => Float, { description: 'By DESCRIPTORS, the distance in feature space (0 = identical; docs/API.md, "Similarity"); by SOUND, the cosine distance of the sound embeddings (0 the same sound, 1 unrelated, up to 2).' })
  distance!: number;

  @Field(() => TrackAnalysis, { description: 'The nearby track.' })
  track!: TrackAnalysis;
}
