import { Arg, FieldResolver, Float, Resolver, Root } from 'type-graphql';
import { invalidArgument } from '../../core/errors';
import { checkTempoRange, tempoInRange } from '../../core/tempo-range';
import { TempoInRange, TrackAnalysis } from './analysis.types';

/** An analysis' tempo counted within a DJ's BPM range (src/core/tempo-range.ts): a view of the stored analysis, which stays the engine's. */
@Resolver(() => TrackAnalysis)
export class TempoRangeResolver {
  @FieldResolver(() => TempoInRange, {
    description:
      'The tempo counted within a BPM range (a crate of drum and bass: 160 to 180): the most probable beat grid of tempo and tempoAlternatives, levels a power of two apart being one grid, at its octave inside the range (docs/FEATURES.md, "A BPM range"). The ends: 20–400 BPM, min under max.',
  })
  tempoInRange(
    @Root() analysis: TrackAnalysis,
    @Arg('min', () => Float, { description: 'The range\'s lowest tempo, BPM.' }) min: number,
    @Arg('max', () => Float, { description: 'The range\'s highest tempo, BPM.' }) max: number,
  ): TempoInRange {
    let range;
    try {
      range = checkTempoRange({ min, max });
    } catch (error) {
      throw invalidArgument((error as Error).message);
    }
    return tempoInRange(analysis, range);
  }
}
