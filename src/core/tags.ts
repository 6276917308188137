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
