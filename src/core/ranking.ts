/** The names a query gives: a title, and optionally an artist. */
export interface NameQuery {
  track: string;
  artist?: string | undefined;
}

/**
 * match_score: how closely a result matches the query, in [0,1].
 *
 * Both sides are normalised first (see `normaliseTitle` / `normaliseArtist`): case, accents,
 * punctuation, "feat." credits, "(Remastered 2011)"-style suffixes and "NN - " track-number
 * prefixes are ignored. Similarity of two normalised strings is the Sørensen–Dice coefficient
 * of their character bigrams (robust to word order and small typos), raised to 1 for equal
 * strings and for a query that is a whole-word prefix of the title. With an artist in the query
 * the score is 0.7 x title + 0.3 x artist; without one it is the title similarity alone.
 */
export function matchScore(query: NameQuery, candidate: { trackName: string; artist: string }): number {
  return matchScorer(query)(normalisedNames(candidate));
}

/** A candidate's title and artist as matchScore compares them. */
export interface NormalisedNames {
  title: string;
  artist: string;
}

export function normalisedNames(candidate: { trackName: string; artist: string }): NormalisedNames {
  return { title: normaliseTitle(candidate.trackName), artist: normaliseArtist(candidate.artist) };
}

/**
 * matchScore for one query against many candidates (the library's search): the query is
 * normalised once, and the candidates' normalised names can be kept between searches.
 */
export function matchScorer(query: NameQuery): (candidate: NormalisedNames) => number {
  const title = normaliseTitle(query.track);
  const artist = query.artist && query.artist.trim() !== '' ? normaliseArtist(query.artist) : undefined;
  return (c) => {
    const t = similarity(title, c.title);
    return artist === undefined ? round(t) : round(0.7 * t + 0.3 * similarity(artist, c.artist));
  };
}

const SUFFIX_WORDS =
  /\b(remaster(ed)?|re-?master(ed)?|live|mono|stereo|version|edit|mix|remix|demo|deluxe|bonus|single|radio|album|explicit|clean|acoustic|instrumental|bonus track|anniversary)\b/;

/** Lowercase, strip accents and punctuation (apostrophes join, the rest separate), collapse spaces. */
export function normaliseText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    // "Don't" and "Dont" are one word; other punctuation separates words.
    .replace(/['\u2019\u2018`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

export function normaliseTitle(title: string): string {
  let t = title.normalize('NFC').trim();
  t = t.replace(/^\d{1,3}\s*[-.]\s+/, '');
  t = t.replace(/\s*[([]\s*(feat\.?|ft\.?|featuring|with)\s[^)\]]*[)\]]/gi, '');
  t = t.replace(/\s+(feat\.?|ft\.?|featuring)\s.*$/i, '');
  // Parenthesised or dash-separated qualifiers such as "(Remastered 2011)" or "- Live at Pompeii".
  t = t.replace(/\s*[([][^)\]]*[)\]]/g, (m) => (SUFFIX_WORDS.test(m.toLowerCase()) ? '' : m));
  t = t.replace(/\s+-\s+([^-]+)$/, (m, tail: string) => (SUFFIX_WORDS.test(tail.toLowerCase()) ? '' : m));
  return normaliseText(t);
}

export function normaliseArtist(artist: string): string {
  const a = artist.replace(/\s+(feat\.?|ft\.?|featuring|with|&|x|,)\s.*$/i, '');
  return normaliseText(a).replace(/^the /, '');
}

function bigrams(value: string): Map<string, number> {
  const grams = new Map<string, number>();
  const s = ` ${value} `;
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Sørensen–Dice over character bigrams of already-normalised strings, in [0,1]. */
export function similarity(a: string, b: string): number {
  if (a === b) return a.length > 0 ? 1 : 0;
  if (a.length === 0 || b.length === 0) return 0;
  if (b.startsWith(`${a} `) || a.startsWith(`${b} `)) {
    // A whole-word prefix ("money" vs "money money money") is a strong but not perfect match.
    return Math.max(0.85, dice(a, b));
  }
  return dice(a, b);
}

function dice(a: string, b: string): number {
  const ga = bigrams(a);
  const gb = bigrams(b);
  let overlap = 0;
  let total = 0;
  for (const [g, n] of ga) {
    overlap += Math.min(n, gb.get(g) ?? 0);
    total += n;
  }
  for (const n of gb.values()) total += n;
  return (2 * overlap) / total;
}

const round = (x: number): number => Math.round(x * 10000) / 10000;
