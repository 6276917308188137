import { FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { DESCRIPTORS, descriptorListings, valueOf } from '../../core/descriptors';
import { PITCH_CLASSES } from '../../core/music';
import { TrackAnalysis } from './analysis.types';
import { DescriptorGroup, DescriptorInfo, DescriptorValue } from './descriptors.types';

/** The registry as the API lists it: computed once, the same objects for every request. */
const LISTINGS: readonly DescriptorInfo[] = descriptorListings().map((d) => ({ ...d, group: DescriptorGroup[d.group] }));

@Resolver(() => TrackAnalysis)
export class DescriptorsResolver {
  @Query(() => [DescriptorInfo], { description: 'Every descriptor and mood an analysis carries, in the order the API lists them.' })
  descriptors(): readonly DescriptorInfo[] {
    return LISTINGS;
  }

  @Query(() => [String], { description: 'Pitch-class names as `key` counts them: 0 = C … 11 = B (the notes keyString writes).' })
  pitchClasses(): readonly string[] {
    return PITCH_CLASSES;
  }

  @FieldResolver(() => [DescriptorValue], {
    description: 'Every descriptor and mood of this analysis with its value, in the order of `descriptors`: what a client lists without naming each field.',
  })
  descriptorValues(@Root() analysis: TrackAnalysis): DescriptorValue[] {
    const values: DescriptorValue[] = [];
    for (const d of DESCRIPTORS) {
      const value = valueOf(analysis as unknown as { mood: Record<string, number> }, d);
      if (value !== undefined) values.push({ name: d.name, group: d.group === 'mood' ? DescriptorGroup.MOOD : DescriptorGroup.DESCRIPTOR, value });
    }
    return values;
  }
}
