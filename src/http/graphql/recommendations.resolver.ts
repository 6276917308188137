import { Args, ArgsType, Field, Float, InputType, Int, Query, Resolver } from 'type-graphql';
import { DEFAULT_RECOMMENDATIONS, GENRE_TOP, MAX_RECOMMENDATIONS, MAX_SEEDS, TUNABLE, type RecommendationsService, type Tuning } from '../../analysis/recommendations.service';
import { TrackAnalysis, trackAnalysisOf } from './analysis.types';

/** Extra cost of recommendations() (a pool read and ranking). */
export const RECOMMENDATIONS_COST = 20;

/** A tunable attribute's GraphQL field: its Spotify name in camelCase (time_signature → timeSignature). */
const fieldOf = (name: string): string => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

@InputType({
  description: 'A value per tunable attribute: every top-level descriptor, tempo (BPM), key (0–11), mode (1 major, 0 minor), loudness (LUFS), timeSignature and durationMs.',
})
export class RecommendationTuning {}

for (const { name } of TUNABLE) {
  Field(() => Float, { nullable: true, description: `${name}.` })(RecommendationTuning.prototype, fieldOf(name));
}

@ArgsType()
export class RecommendationsArgs {
  @Field(() => [String], { nullable: true, description: `Up to ${MAX_SEEDS} keys of stored analyses: the targets not given are their mean. Never recommended themselves.` })
  seedTracks?: string[] | null;

  @Field(() => [String], {
    nullable: true,
    description: `Genre seeds (the auto-tagger’s tags but its eras and voices, in Spotify’s spelling or the tagger’s: "hip-hop", "jazz"): only analyses with one of them among their ${GENRE_TOP} most probable tags are recommended (analyses the trained models made). Up to ${MAX_SEEDS} seeds, tracks and genres together.`,
  })
  seedGenres?: string[] | null;

  @Field(() => Int, { nullable: true, description: `How many: 1–${MAX_RECOMMENDATIONS}, default ${DEFAULT_RECOMMENDATIONS}.` })
  limit?: number | null;

  @Field(() => RecommendationTuning, { nullable: true, description: 'Lowest values allowed (inclusive).' })
  min?: RecommendationTuning | null;

  @Field(() => RecommendationTuning, { nullable: true, description: 'Highest values allowed (inclusive).' })
  max?: RecommendationTuning | null;

  @Field(() => RecommendationTuning, { nullable: true, description: 'Values to be near; those not given are the seeds’ mean.' })
  target?: RecommendationTuning | null;
}

/** An input's values by the attributes' Spotify names. */
function byName(input: RecommendationTuning | null | undefined): Partial<Record<string, number>> {
  const out: Partial<Record<string, number>> = {};
  if (!input) return out;
  for (const { name } of TUNABLE) {
    const v = (input as Record<string, unknown>)[fieldOf(name)];
    if (typeof v === 'number') out[name] = v;
  }
  return out;
}

/** Recommendations by target over the stored analyses, as GET /v1/recommendations serves them. Thin: the service validates. */
@Resolver()
export class RecommendationsResolver {
  constructor(private readonly service: RecommendationsService) {}

  @Query(() => [TrackAnalysis], {
    description:
      'Stored analyses nearest to targets (given, or the seeds’ mean) within the min/max ranges, nearest first; the seeds excluded. Starts no analysis.',
    complexity: ({ args, childComplexity }) => RECOMMENDATIONS_COST + (typeof args.limit === 'number' ? args.limit : DEFAULT_RECOMMENDATIONS) * childComplexity,
  })
  async recommendations(@Args(() => RecommendationsArgs) args: RecommendationsArgs): Promise<TrackAnalysis[]> {
    const tuning: Tuning = { min: byName(args.min), max: byName(args.max), target: byName(args.target) };
    const found = await this.service.recommend({ seedTracks: args.seedTracks ?? [], seedGenres: args.seedGenres ?? [], limit: args.limit ?? null, tuning });
    return found.tracks.map(trackAnalysisOf);
  }
}
