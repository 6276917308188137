import { Arg, FieldResolver, Float, Resolver, Root, registerEnumType } from 'type-graphql';
import { KEY_NOTATIONS, type KeyNotation as KeyNotationName } from '../../core/music';
import { tempoInRange } from '../../core/tempo-range';
import { TempoInRange, TrackAnalysis } from './analysis.types';
import { tempoRange } from './graphql.args';

export enum KeyNotation {
  STANDARD = 'STANDARD',
  OPEN_KEY = 'OPEN_KEY',
  CAMELOT = 'CAMELOT',
}

registerEnumType(KeyNotation, {
  name: 'KeyNotation',
  description: 'How DJ software writes a key (docs/TAGS.md, "The key in the DJ software\'s notation").',
  valuesConfig: {
    STANDARD: { description: '"Am", "F#": the note, m for minor (ID3\'s TKEY, beets).' },
    OPEN_KEY: { description: '"1m", "7d": the circle of fifths from C major = 1d (Traktor, Mixxx).' },
    CAMELOT: { description: '"8A", "2B": the Open Key wheel turned by seven, A minor, B major (Mixed In Key, rekordbox).' },
  },
});

const NOTATION_NAMES: Record<KeyNotation, KeyNotationName> = { STANDARD: 'standard', OPEN_KEY: 'open-key', CAMELOT: 'camelot' };

/**
 * What a DJ's software reads of an analysis: the tempo counted within a crate's BPM range
 * (src/core/tempo-range.ts) and the key in its notation (src/core/music.ts). Views of the stored
 * analysis, which stays the engine's.
 */
@Resolver(() => TrackAnalysis)
export class CrateResolver {
  @FieldResolver(() => TempoInRange, {
    description:
      'The tempo counted within a BPM range (a crate of drum and bass: 160 to 180): the most probable beat grid of tempo and tempoAlternatives, levels a power of two apart being one grid, at its octave inside the range (docs/FEATURES.md, "A BPM range"). The ends: 20–400 BPM, min under max.',
  })
  tempoInRange(
    @Root() analysis: TrackAnalysis,
    @Arg('min', () => Float, { description: 'The range\'s lowest tempo, BPM.' }) min: number,
    @Arg('max', () => Float, { description: 'The range\'s highest tempo, BPM.' }) max: number,
  ): TempoInRange {
    return tempoInRange(analysis, tempoRange(min, max));
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'The key and mode as DJ software writes them ("Am", "1m" or "8A"); null where the analysis has no key (keyString says it in words).',
  })
  keyName(
    @Root() analysis: TrackAnalysis,
    @Arg('notation', () => KeyNotation, { defaultValue: KeyNotation.STANDARD, description: 'The notation: STANDARD, OPEN_KEY or CAMELOT.' }) notation: KeyNotation,
  ): string | null {
    return KEY_NOTATIONS[NOTATION_NAMES[notation]](analysis.key, analysis.mode) ?? null;
  }
}
