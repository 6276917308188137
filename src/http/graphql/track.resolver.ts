import { Args, Query, Resolver } from 'type-graphql';
import { trackKey } from '../../core/track-key';
import type { SearchService } from '../../search/search.service';
import { limit, name, optionalName, SearchArgs, TrackKeyArgs } from './graphql.args';
import { SEARCH_COST } from './graphql.cost';
import { globalId } from './node.types';
import { SearchPage, SearchResult } from './search.types';

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
    return (await this.searchPage(args)).results;
  }

  @Query(() => SearchPage, {
    description:
      'The same search as `search`, with whether more matches follow and which sources could not be asked (so "nothing found" and "a catalogue is down" read differently).',
    complexity: ({ args, childComplexity }) => SEARCH_COST + (typeof args.limit === 'number' ? args.limit : 10) * childComplexity,
  })
  async searchPage(@Args(() => SearchArgs) args: SearchArgs): Promise<SearchPage> {
    const artist = optionalName('artist', args.artist);
    const page = await this.searchService.searchPage({
      track: name('track', args.track),
      limit: limit(args.limit),
      offset: args.offset ?? 0,
      ...(artist ? { artist } : {}),
    });
    return { ...page, results: page.results.map((r) => ({ id: globalId('SearchResult', r.trackKey), ...r })) };
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
