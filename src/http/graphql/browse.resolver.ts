import { Args, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { DEFAULT_PAGE, DEFAULT_SIMILAR, type BrowseService } from '../../analysis/browse.service';
import { AppError } from '../../core/errors';
import { DEFAULT_PATH_STEPS, type SoundService } from '../../analysis/sound.service';
import { trackAnalysisOf } from './analysis.types';
import { PathStep, SimilarArgs, SimilarityBasis, SimilarTrack, SoundPathArgs, TrackConnection, TracksArgs } from './browse.types';

/** Extra cost of a tracks() page (an index read) and of similar() (a candidate read and ranking). */
export const TRACKS_COST = 5;
export const SIMILAR_COST = 20;
/** Extra cost of counting every match of a filter. */
export const TOTAL_COUNT_COST = 20;

/**
 * Exploring stored analyses. Thin: the arguments go to BrowseService as they are; it validates
 * them. Answers change as analyses arrive, so they are never in the immutable response cache.
 */
@Resolver(() => TrackConnection)
export class BrowseResolver {
  constructor(
    private readonly browse: BrowseService,
    private readonly sound?: SoundService,
  ) {}

  private soundService(): SoundService {
    if (!this.sound) throw new AppError('SERVICE_UNAVAILABLE', 'similarity by sound is not served here');
    return this.sound;
  }

  @Query(() => TrackConnection, {
    description:
      'Stored analyses, filtered and ordered, a page at a time (Relay connection: first/after forward, last/before backward). Cursors stay valid while analyses arrive. Starts no analysis.',
    complexity: ({ args, childComplexity }) =>
      TRACKS_COST + (typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : DEFAULT_PAGE) * childComplexity,
  })
  async tracks(@Args(() => TracksArgs) args: TracksArgs): Promise<TrackConnection> {
    const page = await this.browse.tracks(args);
    return {
      edges: page.edges.map((e) => ({ cursor: e.cursor, node: trackAnalysisOf(e.node) })),
      pageInfo: page.pageInfo,
      filter: page.filter,
    };
  }

  @FieldResolver(() => Int, {
    description: 'Every stored analysis matching the filter (counts them all: ask only when needed).',
    complexity: TOTAL_COUNT_COST,
  })
  totalCount(@Root() connection: TrackConnection): Promise<number> {
    return this.browse.count(connection.filter);
  }

  @Query(() => [SimilarTrack], {
    description:
      'The stored tracks nearest to a stored track, nearest first: by DESCRIPTORS (the default) in feature space (tempo, key, mode, descriptors, moods), by SOUND by their sound embeddings (docs/SIMILARITY.md).',
    complexity: ({ args, childComplexity }) => SIMILAR_COST + (typeof args.first === 'number' ? args.first : DEFAULT_SIMILAR) * childComplexity,
  })
  async similar(@Args(() => SimilarArgs) args: SimilarArgs): Promise<SimilarTrack[]> {
    const options = { otherArtists: args.otherArtists };
    const found = args.by === SimilarityBasis.SOUND ? await this.soundService().similar(args.trackKey, args.first, options) : await this.browse.similar(args.trackKey, args.first, options);
    return found.map((s) => ({ distance: s.distance, track: trackAnalysisOf(s.analysis) }));
  }

  @Query(() => [PathStep], {
    description:
      'A path by sound from one stored track to another: `steps` distinct stored tracks between them, each the nearest to its place on the straight line between the two sound embeddings, both ends included (docs/SIMILARITY.md).',
    complexity: ({ args, childComplexity }) => SIMILAR_COST + ((typeof args.steps === 'number' ? args.steps : DEFAULT_PATH_STEPS) + 2) * childComplexity,
  })
  async soundPath(@Args(() => SoundPathArgs) args: SoundPathArgs): Promise<PathStep[]> {
    const steps = await this.soundService().path(args.from, args.to, args.steps);
    return steps.map((s) => ({ distance: s.distance, track: trackAnalysisOf(s.analysis) }));
  }
}
