import { isTrackKey, trackKey } from '../../../src/core/track-key';

describe('trackKey', () => {
  it.each([
    ['Pink Floyd', 'Money', 'bc24aaa5a97c70ed'],
    ['Pink Floyd', 'Cymbaline', 'f63116f780b3b1eb'],
    ['Brian Adams', 'Forgive', '43134f5237c98ee9'],
  ])('hashes (%s, %s) to the contract vector %s', (artist, track, expected) => {
    expect(trackKey(artist, track)).toBe(expected);
  });

  it('ignores case and surrounding whitespace, as the contract says', () => {
    expect(trackKey('  PINK floyd ', '\tmoney\n')).toBe(trackKey('Pink Floyd', 'Money'));
  });

  it('treats a decomposed accent like the precomposed one (NFC)', () => {
    expect(trackKey('Beyonce\u0301', 'Halo')).toBe(trackKey('Beyoncé', 'Halo'));
  });

  it('keeps inner whitespace and punctuation significant', () => {
    expect(trackKey('Pink Floyd', 'Money')).not.toBe(trackKey('PinkFloyd', 'Money'));
  });

  it('gives 16 lowercase hex characters for non-Latin names', () => {
    expect(isTrackKey(trackKey('坂本龍一', 'Merry Christmas Mr. Lawrence'))).toBe(true);
  });

  it('rejects keys of the wrong length or alphabet', () => {
    expect(isTrackKey('bc24aaa5a97c70ed')).toBe(true);
    expect(isTrackKey('BC24AAA5A97C70ED')).toBe(false);
    expect(isTrackKey('bc24aaa5a97c70e')).toBe(false);
    expect(isTrackKey('bc24aaa5a97c70eg')).toBe(false);
  });
});
