/**
 * The tags of the MSD auto-tagger (Essentia's msd-musicnn-1), in the order of its 50 outputs:
 * musicnn's Million Song Dataset vocabulary, spelt as the model's authors spell them. What an
 * analysis made with the models carries (`tags`), and what browse filters by.
 */
export const TAGGER_TAG_NAMES = [
  'rock', 'pop', 'alternative', 'indie', 'electronic', 'female vocalists', 'dance', '00s', 'alternative rock', 'jazz',
  'beautiful', 'metal', 'chillout', 'male vocalists', 'classic rock', 'soul', 'indie rock', 'Mellow', 'electronica', '80s',
  'folk', '90s', 'chill', 'instrumental', 'punk', 'oldies', 'blues', 'hard rock', 'ambient', 'acoustic',
  'experimental', 'female vocalist', 'guitar', 'Hip-Hop', '70s', 'party', 'country', 'easy listening', 'sexy', 'catchy',
  'funk', 'electro', 'heavy metal', 'Progressive rock', '60s', 'rnb', 'indie pop', 'sad', 'House', 'happy',
] as const;

export type TaggerTag = (typeof TAGGER_TAG_NAMES)[number];

/** How many tags the tagger gives: an analysis holds at most these. */
export const TAGGER_TAGS = TAGGER_TAG_NAMES.length;

const BY_FOLDED = new Map<string, TaggerTag>(TAGGER_TAG_NAMES.map((t) => [t.toLowerCase(), t]));

/** The tagger's spelling of a tag named in any case ("hip-hop" is "Hip-Hop"), or undefined when it gives no such tag. */
export function taggerTag(name: string): TaggerTag | undefined {
  return BY_FOLDED.get(name.trim().toLowerCase());
}

/** The tags that are eras or voices, not kinds of music: no genre seed. */
const NOT_GENRES: ReadonlySet<TaggerTag> = new Set(['00s', '90s', '80s', '70s', '60s', 'female vocalists', 'female vocalist', 'male vocalists']);

/** A tag as Spotify spells a genre seed: lower case, words joined by hyphens ("Hip-Hop" hip-hop, "indie pop" indie-pop, "rnb" r-n-b). */
function seedSpelling(tag: TaggerTag): string {
  return tag === 'rnb' ? 'r-n-b' : tag.toLowerCase().replace(/ /g, '-');
}

/** A genre seed: its name as Spotify spells seeds, and the tagger's tag it stands for. */
export interface GenreSeed {
  seed: string;
  tag: TaggerTag;
}

/**
 * The genre seeds of recommendations (Spotify's `seed_genres`, `available-genre-seeds`): the
 * tagger's tags but its eras and voices, spelt as Spotify spells its seeds, in the tagger's order.
 */
export const GENRE_SEEDS: readonly GenreSeed[] = TAGGER_TAG_NAMES.filter((t) => !NOT_GENRES.has(t)).map((tag) => ({ seed: seedSpelling(tag), tag }));

const GENRE_BY_NAME = new Map<string, GenreSeed>(GENRE_SEEDS.flatMap((g) => [[g.seed, g], [g.tag.toLowerCase(), g]] as const));

/** The genre seed a name stands for, in Spotify's spelling or the tagger's, any case; undefined for an era, a voice or no tag. */
export function genreSeed(name: string): GenreSeed | undefined {
  return GENRE_BY_NAME.get(name.trim().toLowerCase());
}
