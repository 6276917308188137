import { useQuery } from '@apollo/client/react';
import { VocabularyDocument, type VocabularyQuery } from '../gql/graphql';

export type Vocabulary = VocabularyQuery;
export type DescriptorInfo = Vocabulary['descriptors'][number];

/**
 * The descriptors, moods, pitch names and tagger tags as the API defines them, asked once per session (the
 * Apollo cache answers every later page): the dashboard copies none of them, so a descriptor
 * added to the server's registry is listed here with no change to the dashboard.
 */
export function useVocabulary(): { vocabulary: Vocabulary | undefined; error: Error | undefined } {
  const { data, error } = useQuery(VocabularyDocument, { fetchPolicy: 'cache-first' });
  return { vocabulary: data, error };
}

/** The label of a descriptor by name, or the name itself when the vocabulary does not know it. */
export function labelOf(vocabulary: Vocabulary, name: string): string {
  return vocabulary.descriptors.find((d) => d.name === name)?.label ?? name;
}
