import { ArgsType, Field, Int } from 'type-graphql';
import { z } from 'zod';
import { TAGGER_TAGS } from '../../core/tags';
import { checkTempoRange, type TempoRange } from '../../core/tempo-range';
import { invalidArgument } from '../../core/errors';
import { MAX_SEARCH_OFFSET } from '../../search/search.service';
import { DEFAULT_LIMIT, MAX_LIMIT, limitRule, nameRule, parse } from '../argument.rules';

/*
 * Arguments of the GraphQL edge and their rules, the same as REST's (src/http/argument.rules.ts)
 * except that GraphQL strings arrive as typed values, so '+' is a plus sign here, not an
 * encoded space. Messages match REST's so that a client reads the same sentence over both.
 * Argument classes keep the arguments in the order written here in the schema.
 */

@ArgsType()
export class SearchArgs {
  @Field(() => String, { description: 'Title to look for.' })
  track!: string;

  @Field(() => String, { nullable: true, description: 'Artist, to narrow the search.' })
  artist?: string | null;

  @Field(() => Int, { nullable: true, description: `Most results wanted: 1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}.` })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: `Matches to skip (paging): 0–${MAX_SEARCH_OFFSET}, default 0.` })
  offset?: number | null;
}

@ArgsType()
export class AnalysisArgs {
  @Field(() => String, { description: '16 hex characters, from search or from trackKey(artist, track).' })
  trackKey!: string;

  @Field(() => String, { nullable: true, description: 'With track: lets an unsearched key be found as search would.' })
  artist?: string | null;

  @Field(() => String, { nullable: true, description: 'With artist: lets an unsearched key be found as search would.' })
  track?: string | null;
}

@ArgsType()
export class TrackKeyArgs {
  @Field(() => String, { description: 'The artist, as given (the formula trims and lower-cases it).' })
  artist!: string;

  @Field(() => String, { description: 'The title, as given (the formula trims and lower-cases it).' })
  track!: string;
}

/** A track or artist name: whitespace runs collapsed and trimmed, non-empty, at most MAX_NAME_LENGTH. */
export function name(field: string, value: string): string {
  return parse(nameRule(field), value);
}

/** An optional name: null or absent stays absent. */
export function optionalName(field: string, value: string | null | undefined): string | undefined {
  return value === null || value === undefined ? undefined : name(field, value);
}

/** Number of search results: DEFAULT_LIMIT when absent, 1–MAX_LIMIT. */
export function limit(value: number | null | undefined): number {
  return value === null || value === undefined ? DEFAULT_LIMIT : parse(limitRule, value);
}

const tagCountRule = z
  .number()
  .int('first must be a whole number')
  .min(1, 'first must be at least 1')
  .max(TAGGER_TAGS, `first must be at most ${TAGGER_TAGS}`);

/** How many tags `tags(first:)` answers: every one when absent, else 1–TAGGER_TAGS. */
export function tagCount(value: number | null | undefined): number {
  return value === null || value === undefined ? TAGGER_TAGS : parse(tagCountRule, value);
}

/** A BPM range's ends (tempoInRange): both within 20–400 BPM, min under max; INVALID_ARGUMENT with the rule otherwise. */
export function tempoRange(min: number, max: number): TempoRange {
  try {
    return checkTempoRange({ min, max });
  } catch (error) {
    throw invalidArgument((error as Error).message);
  }
}
