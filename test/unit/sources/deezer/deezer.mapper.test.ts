import { searchQuery, toCandidates } from '../../../../src/sources/deezer/deezer.mapper';
import type { DeezerSearchResponse } from '../../../../src/sources/deezer/deezer.types';
import { sourceFixture } from '../../../helpers/fake-http';

describe('deezer mapper', () => {
  const response = sourceFixture<DeezerSearchResponse>('deezer/search-money.json');
  const candidates = toCandidates(response.data);

  it('maps a track to a candidate with cover, duration and the preview as audio', () => {
    expect(candidates[0]).toEqual({
      artist: 'Pink Floyd',
      trackName: 'Money',
      album: 'The Dark Side of the Moon',
      durationMs: 382_000,
      thumbnailUrl: 'https://cdn-images.dzcdn.net/images/cover/4dd9c1e7e6e8e0ba3c0a7e9a8e46b2b2/250x250-000000-80-0-0.jpg',
      source: 'deezer',
      sourceId: '1152182',
      audio: { source: 'deezer', locator: '1152182', url: expect.stringMatching(/^https:\/\/cdnt-preview\.dzcdn\.net\/.+\.mp3\?hdnea=/) },
    });
  });

  it('keeps the full title (with its version) so keys differ between versions', () => {
    expect(candidates[1]?.trackName).toBe('Money (2011 Remastered Version)');
  });

  it('skips unreadable tracks and leaves audio out when there is no preview', () => {
    expect(candidates.map((c) => c.sourceId)).toEqual(['1152182', '64587223', '3135556']);
    expect(candidates[2]?.audio).toBeUndefined();
    expect(candidates[2]?.thumbnailUrl).toMatch(/250x250/);
  });

  it('builds the advanced query, dropping quotes inside values', () => {
    expect(searchQuery('Money', 'Pink Floyd')).toBe('artist:"Pink Floyd" track:"Money"');
    expect(searchQuery('Say "Hi"', ' ')).toBe('Say Hi');
  });
});
