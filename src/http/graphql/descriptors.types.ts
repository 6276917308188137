import { Field, Float, ObjectType, registerEnumType } from 'type-graphql';

/*
 * The descriptor registry (src/core/descriptors.list.ts) as GraphQL data, so a client — the
 * dashboard first — lists descriptors, moods and their ranges from the API instead of a copy:
 * a descriptor added to the registry appears there with no change to the client.
 */

export enum DescriptorGroup {
  DESCRIPTOR = 'DESCRIPTOR',
  MOOD = 'MOOD',
}

registerEnumType(DescriptorGroup, {
  name: 'DescriptorGroup',
  description: 'Where a descriptor\'s value is in the analysis object.',
  valuesConfig: {
    DESCRIPTOR: { description: 'A field of the analysis (`energy`).' },
    MOOD: { description: 'A field of the analysis\'s `mood` (`happy`).' },
  },
});

@ObjectType({ description: 'A descriptor or mood an analysis carries, as the registry defines it.' })
export class DescriptorInfo {
  @Field(() => String, { description: 'Its field in the analysis object, or in its `mood` object.' })
  name!: string;

  @Field(() => DescriptorGroup, { description: 'A top-level field or a mood.' })
  group!: DescriptorGroup;

  @Field(() => String, { description: 'Its name for people (`Instrumentalness`).' })
  label!: string;

  @Field(() => String, { description: 'What it measures, in one sentence (as docs/FEATURES.md says it).' })
  description!: string;

  @Field(() => Float, { description: 'The lowest value it takes.' })
  min!: number;

  @Field(() => Float, { description: 'The highest value it takes.' })
  max!: number;

  @Field(() => String, {
    nullable: true,
    description: 'The `TrackOrderField` that orders browse by it (`ENERGY`, `MOOD_HAPPY`); null when browse neither filters nor orders by it.',
  })
  orderField!: string | null;
}

@ObjectType({ description: 'The value of one descriptor or mood of an analysis.' })
export class DescriptorValue {
  @Field(() => String, { description: 'The descriptor\'s name (`DescriptorInfo.name`).' })
  name!: string;

  @Field(() => DescriptorGroup, { description: 'A top-level field or a mood.' })
  group!: DescriptorGroup;

  @Field(() => Float, { description: 'Its value, within the descriptor\'s range.' })
  value!: number;
}
