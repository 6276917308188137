import { TAGGER_TAG_NAMES } from '../../../src/core/tags';
import { tagId, tagRows } from '../../../src/db/tag-rows';

describe('the tag rows browse reads (analysis_tags)', () => {
  it('ranks the tags most probable first, ties in the order the analysis lists them, and holds probabilities in thousandths', () => {
    const rows = tagRows(7, [
      { name: 'jazz', probability: 0.2 },
      { name: 'rock', probability: 0.4125 },
      { name: 'blues', probability: 0.2 },
    ]);
    expect(rows).toEqual([
      { seq: 7, tag: tagId('rock'), milli: 413, rank: 1 },
      { seq: 7, tag: tagId('jazz'), milli: 200, rank: 2 },
      { seq: 7, tag: tagId('blues'), milli: 200, rank: 3 },
    ]);
    expect(tagId('rock')).toBe(0);
    expect(tagId('happy')).toBe(TAGGER_TAG_NAMES.length - 1);
  });

  it('ranks a tag the tagger does not give among the others, without a row of its own', () => {
    const rows = tagRows(1, [
      { name: 'vaporwave', probability: 0.9 },
      { name: 'Hip-Hop', probability: 0.5 },
    ]);
    expect(rows).toEqual([{ seq: 1, tag: tagId('Hip-Hop'), milli: 500, rank: 2 }]);
  });

  it('leaves out what is not a tag: a name twice (its first counts), no name, a probability outside 0–1, not a list', () => {
    const rows = tagRows(3, [
      { name: 'pop', probability: 0.3 },
      { name: 'pop', probability: 0.9 },
      { name: '', probability: 0.5 },
      { name: 'funk', probability: 1.5 },
      { name: 'soul', probability: Number.NaN },
      { probability: 0.4 },
      'rock',
      null,
      { name: 'soul', probability: 0 },
    ]);
    expect(rows).toEqual([
      { seq: 3, tag: tagId('pop'), milli: 300, rank: 1 },
      { seq: 3, tag: tagId('soul'), milli: 0, rank: 2 },
    ]);
    for (const notAList of [undefined, null, 'rock', { name: 'rock', probability: 0.5 }]) expect(tagRows(3, notAList)).toEqual([]);
  });
});
