import { Arg, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { TAGGER_TAGS, TAGGER_TAG_NAMES } from '../../core/tags';
import { DESCRIPTORS, descriptorListings, valueOf } from '../../core/descriptors';
import { PITCH_CLASSES } from '../../core/music';
import { TagScore, TrackAnalysis } from './analysis.types';
import { DescriptorGroup, DescriptorInfo, DescriptorValue } from './descriptors.types';
import { tagCount } from './graphql.args';

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

  @Query(() => [String], {
    description: `The ${TAGGER_TAGS} tags the MSD auto-tagger gives, in its output order and its spelling: what \`tags\` names and \`filter.tags\` finds.`,
  })
  taggerTags(): readonly string[] {
    return TAGGER_TAG_NAMES;
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

  @FieldResolver(() => [TagScore], {
    description:
      'The MSD auto-tagger’s 50 tags with their probabilities, most probable first, when trained models made this analysis (MODELS_DIR; method `models:…`); empty otherwise (REST: tags on the analysis object).',
  })
  tags(
    @Root() analysis: TrackAnalysis,
    @Arg('first', () => Int, { nullable: true, description: `Only the n most probable: 1–${TAGGER_TAGS}; every tag when absent.` }) first: number | null,
  ): TagScore[] {
    return analysis.tags.slice(0, tagCount(first));
  }
}
