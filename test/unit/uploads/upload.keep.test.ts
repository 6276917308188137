import { libraryFileName, safePart } from '../../../src/uploads/upload.keep';
import { nameFromPath } from '../../../src/sources/library/library.index';

describe('the library file name of a kept upload', () => {
  it.each([
    ['../../etc', 'etc'],
    ['a/b\\c', 'a_b_c'],
    ['..', 'X'],
    ['.hidden', 'hidden'],
    ['Con:tains*?"<>|', 'Con_tains_'],
    ['tab\tand\nnewline', 'tab_and_newline'],
    ['   ', 'X'],
  ])('makes %p one safe path segment: %p', (value, expected) => {
    expect(safePart(value, 'X')).toBe(expected);
  });

  it('cuts a long part to 80 characters, whole characters only', () => {
    const part = safePart('é'.repeat(300), 'X');
    expect([...part]).toHaveLength(80);
  });

  it('is read back by the library as the same artist and title, a suffix before the extension when the name is taken', () => {
    expect(libraryFileName('Click Band', 'Metronome', '.wav')).toBe('Click Band - Metronome.wav');
    expect(libraryFileName('Click Band', 'Metronome', '.wav', 2)).toBe('Click Band - Metronome (2).wav');
    expect(nameFromPath(libraryFileName('Click Band', 'Metronome', '.wav'))).toEqual({ artist: 'Click Band', trackName: 'Metronome' });
  });
});
