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
