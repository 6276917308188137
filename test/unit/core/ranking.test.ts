import { matchScore, matchScorer, normaliseArtist, normalisedNames, normaliseTitle } from '../../../src/core/ranking';

describe('match_score', () => {
  it.each([
    ['Money', 'money'],
    ['Money', 'MONEY'],
    ['Beyoncé', 'Beyonce'],
    ['Money', 'Money (Remastered 2011)'],
    ['Money', 'Money - 2011 Remaster'],
    ['Money', '06 - Money'],
    ['Money', 'Money (feat. Someone)'],
    ['Money', 'Money feat. Someone'],
    ["Don't Stop Me Now", 'Dont Stop Me Now!'],
  ])('"%s" matches "%s" exactly', (query, title) => {
    expect(matchScore({ track: query }, { trackName: title, artist: 'X' })).toBe(1);
  });

  it('ignores "feat." credits, a leading "The" and accents in artists', () => {
    expect(normaliseArtist('The Beatles')).toBe('beatles');
    expect(normaliseArtist('Sigur Rós feat. Someone')).toBe('sigur ros');
  });

  it('keeps a non-version parenthesis, which is part of the title', () => {
    expect(normaliseTitle('Shine On You Crazy Diamond (Pts. 1-5)')).toBe('shine on you crazy diamond pts 1 5');
  });

  it('is in [0,1] and weighs title 0.7, artist 0.3 when an artist is asked for', () => {
    const right = matchScore({ track: 'Money', artist: 'Pink Floyd' }, { trackName: 'Money', artist: 'Pink Floyd' });
    const wrongArtist = matchScore({ track: 'Money', artist: 'Pink Floyd' }, { trackName: 'Money', artist: 'ABBA' });
    expect(right).toBe(1);
    expect(wrongArtist).toBeGreaterThanOrEqual(0.7);
    expect(wrongArtist).toBeLessThan(0.8);
    const unrelated = matchScore({ track: 'Money', artist: 'Pink Floyd' }, { trackName: 'Waterloo', artist: 'ABBA' });
    expect(unrelated).toBeGreaterThanOrEqual(0);
    expect(unrelated).toBeLessThan(0.2);
  });

  it('ranks a whole-word prefix below an exact title', () => {
    const exact = matchScore({ track: 'Money' }, { trackName: 'Money', artist: 'A' });
    const longer = matchScore({ track: 'Money' }, { trackName: 'Money Money Money', artist: 'A' });
    expect(longer).toBeLessThan(exact);
    expect(longer).toBeGreaterThanOrEqual(0.85);
  });
});

describe('matchScorer (one query against many candidates, names normalised once)', () => {
  it('gives every candidate the score matchScore gives it, with and without an artist', () => {
    const candidates = [
      { trackName: 'Money (2011 Remastered Version)', artist: 'Pink Floyd' },
      { trackName: 'Money', artist: 'The Flying Lizards' },
      { trackName: 'Hoppípolla', artist: 'Sigur Rós' },
      { trackName: "Don't Stop Me Now - Live", artist: 'Queen' },
      { trackName: 'Forgive', artist: 'Brian Adams' },
    ];
    const queries: [{ track: string; artist?: string }, number][] = [
      [{ track: 'money', artist: 'pink floyd' }, 0],
      [{ track: 'Hoppipolla' }, 2],
      [{ track: 'dont stop me now', artist: '  ' }, 3],
    ];
    for (const [query, best] of queries) {
      const score = matchScorer(query);
      const scores = candidates.map((c) => score(normalisedNames(c)));
      expect(scores).toEqual(candidates.map((c) => matchScore(query, c)));
      expect(scores.indexOf(Math.max(...scores))).toBe(best);
    }
  });
});
