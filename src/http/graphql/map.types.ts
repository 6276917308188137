import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { MODELS_EMBEDDING, SIGNAL_EMBEDDING } from '../../core/sound';

/* The map of the library as GraphQL types: every point with what the dashboard colours it by. */

@ObjectType({ description: 'A track on the map of the library: where it lies and what it may be coloured by.' })
export class SoundMapPoint {
  @Field(() => String, { description: 'The track’s key.' })
  trackKey!: string;

  @Field(() => String, { description: 'The artist.' })
  artist!: string;

  @Field(() => String, { description: 'The title.' })
  trackName!: string;

  @Field(() => Float, { description: 'Across the map, 0–1 (one scale for both axes: distances on the map compare either way).' })
  x!: number;

  @Field(() => Float, { description: 'Down the map, 0–1.' })
  y!: number;

  @Field(() => Float, { description: 'Beats per minute.' })
  tempo!: number;

  @Field(() => Float, { description: 'Energy, 0–1.' })
  energy!: number;

  @Field(() => Float, { description: 'Valence (how positive it sounds), 0–1.' })
  valence!: number;

  @Field(() => Float, { description: 'The happy mood’s score, 0–1.' })
  happy!: number;

  @Field(() => Float, { description: 'The sad mood’s score, 0–1.' })
  sad!: number;

  @Field(() => Float, { description: 'The relaxed mood’s score, 0–1.' })
  relaxed!: number;

  @Field(() => Float, { description: 'The aggressive mood’s score, 0–1.' })
  aggressive!: number;

  @Field(() => String, {
    nullable: true,
    description: 'The auto-tagger’s most probable tag that is a kind of music (no era, no voice), in its spelling; null for analyses made without the trained models.',
  })
  genre!: string | null;
}

@ObjectType({
  description:
    'Every analysed track (a sample of them in a large library) as a point of a 2-D projection (UMAP) of their sound embeddings: tracks that sound alike lie close. Computed by the server and kept; recomputed in the background as analyses arrive.',
})
export class SoundMap {
  @Field(() => String, { description: `The kind of sound embedding the map was made from (\`${MODELS_EMBEDDING}\` with the trained models, else \`${SIGNAL_EMBEDDING}\`).` })
  kind!: string;

  @Field(() => Int, { description: 'Points on the map.' })
  size!: number;

  @Field(() => Int, { description: 'Sound embeddings of the kind when the map was made: more than size when the map is a sample.' })
  total!: number;

  @Field(() => GraphQLISODateTime, { description: 'When the map was made.' })
  computedAt!: Date;

  @Field(() => Boolean, { description: 'True when analyses arrived since the map was made: a new map is computed, or will be, and a later query gets it.' })
  stale!: boolean;

  @Field(() => [SoundMapPoint], { description: 'The tracks on the map, in track-key order.' })
  points!: SoundMapPoint[];
}
