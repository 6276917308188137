import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from './graphql.context';
import { AnalysisArgs, optionalName } from './graphql.args';
import { ANALYSIS_COST } from './graphql.cost';
import { AnalysisStatus, TrackAnalysis, analysisStatusOf, trackAnalysisOf } from './analysis.types';
import { Node, parseGlobalId } from './node.types';

/**
 * What does it sound like? Thin: every lookup goes through the request's AnalysisLoaders, which
 * batch stored analyses into one store read and pass misses to AnalysisService.
 */
@Resolver()
export class AnalysisResolver {
  @Query(() => TrackAnalysis, {
    nullable: true,
    description:
      'The analysis of a key: from the store, else analysed from the audio that search, the library (which knows its own tracks by key) or artist and track found. ' +
      'null while it is still being computed: ask analysisStatus for its progress.',
    complexity: ({ childComplexity }) => ANALYSIS_COST + childComplexity,
  })
  async analysis(@Args(() => AnalysisArgs) args: AnalysisArgs, @Ctx() context: GraphQLContext): Promise<TrackAnalysis | null> {
    const hint = { artist: optionalName('artist', args.artist), track: optionalName('track', args.track) };
    const outcome = await context.analyses.analysis(args.trackKey, hint);
    return outcome.status === 'done' ? trackAnalysisOf(outcome.analysis) : null;
  }

  @Query(() => [TrackAnalysis], {
    nullable: 'items',
    description: 'Stored analyses of up to 100 keys, in the order asked, null where a key has none. Starts no analysis.',
    complexity: ({ args, childComplexity }) => 1 + (Array.isArray(args.trackKeys) ? args.trackKeys.length : 1) * childComplexity,
  })
  async analyses(
    @Arg('trackKeys', () => [String], { description: 'Up to 100 track keys (16 hex characters, either case); repeats allowed.' }) trackKeys: string[],
    @Ctx() context: GraphQLContext,
  ): Promise<(TrackAnalysis | null)[]> {
    const stored = await context.analyses.storedMany(trackKeys);
    return stored.map((s) => (s ? trackAnalysisOf(s) : null));
  }

  @Query(() => Node, {
    nullable: true,
    description: 'The object of a global id (Relay\'s refetch): a TrackAnalysis when it is stored, else null. Starts no analysis.',
    complexity: ({ childComplexity }) => 1 + childComplexity,
  })
  async node(@Arg('id', () => ID, { description: 'A global id, "TrackAnalysis:<trackKey>".' }) id: string, @Ctx() context: GraphQLContext): Promise<Node | null> {
    const parsed = parseGlobalId(id);
    if (parsed?.type !== 'TrackAnalysis') return null;
    const [stored] = await context.analyses.storedMany([parsed.trackKey]);
    return stored ? trackAnalysisOf(stored) : null;
  }

  @Query(() => AnalysisStatus, {
    description: 'Where the analysis of a key stands (DONE, QUEUED, PROCESSING or UNKNOWN), without starting one.',
    complexity: ({ childComplexity }) => 1 + childComplexity,
  })
  async analysisStatus(@Arg('trackKey', () => String, { description: 'The track key (16 hex characters, either case).' }) trackKey: string, @Ctx() context: GraphQLContext): Promise<AnalysisStatus> {
    return analysisStatusOf(await context.analyses.status(trackKey));
  }
}
