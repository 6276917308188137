import { Field, Float, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One search result, as in the REST search response.' })
export class SearchResult {
  @Field(() => ID, { description: 'Global id: "SearchResult:<trackKey>". The analysis of the same track is "TrackAnalysis:<trackKey>".' })
  id!: string;

  @Field(() => String, { description: 'Title of the song.' })
  trackName!: string;

  @Field(() => String, { description: 'Performing artist.' })
  artist!: string;

  @Field(() => String, {
    description: 'Cover art URL, loadable by an <img> without a key: the source’s picture, or a placeholder generated for the track (a PNG) when it has none.',
  })
  thumbnailUrl!: string;

  @Field(() => String, { description: 'Key of this track: hash of the artist and trackName returned here.' })
  trackKey!: string;

  @Field(() => Float, { description: 'How closely the result matches the query. Larger means closer.' })
  match_score!: number;
}

@ObjectType({ description: 'A source that could not be searched for a query.' })
export class SourceFailure {
  @Field(() => String, { description: 'The source’s name, as in SOURCES (deezer, musicbrainz, upstream).' })
  source!: string;

  @Field(() => String, { description: 'Why: UPSTREAM_UNAVAILABLE, UPSTREAM_TIMEOUT, UPSTREAM_INVALID, RATE_LIMITED …' })
  code!: string;

  @Field(() => String, {
    description: "What went wrong, in words for a person (an error this server knows says what it was; anything unexpected is masked, its details only in the server's log). Not for matching: read `code`.",
  })
  message!: string;
}

@ObjectType({ description: 'A page of search results, whether more follow, and which sources could not be asked.' })
export class SearchPage {
  @Field(() => [SearchResult], { description: 'Best match first (the same results `search` gives).' })
  results!: SearchResult[];

  @Field(() => Boolean, { description: 'Whether the ranking holds matches after this page (ask again with offset + limit).' })
  hasMore!: boolean;

  @Field(() => [SourceFailure], {
    description: 'Sources that failed for this query; empty when every source answered. An empty `results` with a failed source may not mean "no such track".',
  })
  failedSources!: SourceFailure[];
}
