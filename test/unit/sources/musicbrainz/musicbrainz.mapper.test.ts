import { artistCredit, luceneQuery, toCandidates } from '../../../../src/sources/musicbrainz/musicbrainz.mapper';
import type { MbRecordingSearchResponse } from '../../../../src/sources/musicbrainz/musicbrainz.types';
import { sourceFixture } from '../../../helpers/fake-http';

describe('musicbrainz mapper', () => {
  const response = sourceFixture<MbRecordingSearchResponse>('musicbrainz/recording-money.json');
  const candidates = toCandidates(response.recordings, 'https://coverartarchive.org');

  it('maps a recording: score / 100, length, Cover Art Archive front-250 of an official album, no audio', () => {
    expect(candidates[0]).toEqual({
      artist: 'Pink Floyd',
      trackName: 'Money',
      album: 'The Dark Side of the Moon',
      durationMs: 382_813,
      thumbnailUrl: 'https://coverartarchive.org/release/b84ee12a-09ef-421b-82de-0441a926375b/front-250',
      isrc: 'GBN9Y1100088',
      source: 'musicbrainz',
      sourceId: '2a8f1c43-6e6b-4a2a-9b5d-8f3f7a1b2c3d',
      sourceScore: 1,
    });
    expect(candidates.every((c) => c.audio === undefined)).toBe(true);
  });

  it('prefers an official release over a bootleg for the cover', () => {
    expect(candidates[1]?.thumbnailUrl).toContain('/release/0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b/');
    expect(candidates[1]?.sourceScore).toBe(0.88);
  });

  it('skips videos, reads string scores, and joins artist credits with their join phrases', () => {
    expect(candidates).toHaveLength(3);
    expect(candidates[2]).toMatchObject({ artist: 'David Gilmour & Roger Waters', sourceScore: 0.54 });
    expect(candidates[2]?.thumbnailUrl).toBeUndefined();
    expect(artistCredit([{ name: 'A', joinphrase: ' feat. ' }, { name: 'B' }])).toBe('A feat. B');
  });

  it('builds a Lucene query with special characters escaped', () => {
    expect(luceneQuery('Money', 'Pink Floyd')).toBe('recording:"Money" AND artist:"Pink Floyd"');
    expect(luceneQuery('Pts. 1-5 (live)')).toBe('recording:"Pts. 1\\-5 \\(live\\)"');
    expect(luceneQuery('say "hi"')).toBe('recording:"say \\"hi\\""');
  });
});
