/*
 * Search folding of names: what artist/title text filters compare, on the stored side (the
 * analyses' artist_fold and title_fold columns, migration 0003) and on the query side alike, so a
 * filter behaves the same on SQLite and Postgres whatever their collations. This is not the track
 * key's normalisation (src/core/track-key.ts), which the contract fixes and must not change.
 *
 * Changing foldForSearch changes what stored rows should hold: it needs a new migration that
 * folds the stored names again (0003 back-filled them with this function as it was then).
 */

/**
 * Combining marks removed by the fold: the general diacritics of the Latin, Greek and Cyrillic
 * scripts (Combining Diacritical Marks and their Extended and Supplement blocks, marks for
 * symbols, half marks), Hebrew points and cantillation, Arabic harakat. Marks that are part of a
 * letter elsewhere are kept: Indic vowel signs, the Japanese voicing marks (が is not か).
 */
// eslint-disable-next-line no-misleading-character-class -- a class of lone combining marks, matched one by one
const DIACRITICS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670]/gu;

/** Latin letters that carry their accent in the letter itself (no decomposition), and ligatures typed out. */
const LETTERS: Readonly<Record<string, string>> = {
  'ł': 'l', 'đ': 'd', 'ø': 'o', 'ħ': 'h', 'ŧ': 't', 'ƚ': 'l', 'ı': 'i', 'æ': 'ae', 'œ': 'oe',
  // Greek final sigma: lower case writes it by position, so a query "Σ" must meet a stored "ς".
  'ς': 'σ',
};
const LETTER_RE = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'gu');

/**
 * A name folded for matching: compatibility decomposition (NFKD: ﬁ → fi, full-width Ａ → A,
 * half-width ｶ → カ, ² → 2), case folded (upper then lower case, locale-independent, so ß → ss
 * and final ς → σ), diacritics removed (é → e, ó → o, İ → i), ł ø đ ħ ŧ ı → l o d h t i,
 * æ œ → ae oe, ς → σ, whitespace runs collapsed to one space and trimmed. "Beyoncé", "BEYONCE" and
 * "beyonce" all fold to "beyonce"; "Sigur Rós" to "sigur ros"; "坂本龍一" is unchanged.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKD')
    .replace(DIACRITICS, '')
    .replace(LETTER_RE, (c) => LETTERS[c] ?? c)
    .replace(/\s+/gu, ' ')
    .trim();
}
