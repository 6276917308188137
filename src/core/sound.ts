import { SIGNAL_METHOD } from './analysis-method';

/**
 * The kinds of sound embedding (SoundEmbedding.kind: method and version). A version changes
 * whenever a kind's vectors would no longer compare with the ones stored before: an analysis'
 * embeddings are remade by `npm run index -- --reanalyse`, which redoes older engines' analyses.
 */

/** The signal path's embedding: timbre, rhythm, tonal colour and loudness statistics, standardised and weighted, and the cepstral frames' supervector (src/engine/sound.embedding.ts). */
export const SIGNAL_EMBEDDING = 'signal/3';

/** The prefix of the models' embeddings (MODELS_DIR): the MusiCNN tagger's penultimate layer, pooled over patches. */
export const MODELS_EMBEDDING_PREFIX = 'musicnn/';
export const MODELS_EMBEDDING = 'musicnn/1';

/** The models' embedding kind of an analysis method (`models:<set>…`), or undefined for the signal path's. */
export function modelsEmbeddingKind(method: string): string | undefined {
  return method !== SIGNAL_METHOD && method.startsWith('models:') ? MODELS_EMBEDDING : undefined;
}
