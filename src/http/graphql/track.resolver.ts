import { Args, Query, Resolver } from 'type-graphql';
import { trackKey } from '../../core/track-key';
import type { SearchService } from '../../search/search.service';
import { limit, name, optionalName, SearchArgs, TrackKeyArgs } from './graphql.args';
import { SEARCH_COST } from './graphql.cost';
import { globalId } from './node.types';
import { SearchResult } from './search.types';

/** Which track do you mean? Thin: parse the arguments, call one service method. */
@Resolver()
export class TrackResolver {
  constructor(private readonly searchService: SearchService) {}

  @Query(() => [SearchResult], {
    description:
      'Tracks matching a title (and artist), best match first; `offset` pages through them. Each result’s trackKey can be analysed.',
    complexity: ({ args, childComplexity }) => SEARCH_COST + (typeof args.limit === 'number' ? args.limit : 10) * childComplexity,
  })
  async search(@Args(() => SearchArgs) args: SearchArgs): Promise<SearchResult[]> {
    const artist = optionalName('artist', args.artist);
    const page = await this.searchService.searchPage({
      track: name('track', args.track),
      limit: limit(args.limit),
      offset: args.offset ?? 0,
      ...(artist ? { artist } : {}),
    });
    return page.results.map((r) => ({ id: globalId('SearchResult', r.trackKey), ...r }));
  }

  @Query(() => String, {
    description: 'The key of a track: first 16 hex of sha256(lower(trim(artist)) + ":" + lower(trim(track))), after Unicode NFC.',
  })
  trackKey(@Args(() => TrackKeyArgs) args: TrackKeyArgs): string {
    // Validated like every name, but hashed as given: the formula trims, nothing more.
    name('artist', args.artist);
    name('track', args.track);
    return trackKey(args.artist, args.track);
  }
}
