import { SIGNAL_METHOD } from './analysis-method';

/**
 * The kinds of sound embedding (SoundEmbedding.kind: method and version). A version changes
 * whenever a kind's vectors would no longer compare with the ones stored before: an analysis'
 * embeddings are remade by `npm run index -- --reanalyse`, which redoes older engines' analyses.
 */

/** The signal path's embedding: timbre, rhythm, tonal colour and loudness statistics, standardised and weighted, and the cepstral frames' supervector (src/engine/sound.embedding.ts). */
export const SIGNAL_EMBEDDING = 'signal/4';
/** The first engine (ALGORITHM_VERSION) whose analyses carry SIGNAL_EMBEDDING; older ones carry none of this kind. */
export const SIGNAL_EMBEDDING_SINCE = 29;

/** The prefix of the models' embeddings (MODELS_DIR): the MusiCNN tagger's penultimate layer, pooled over patches, with the classifiers, the layer's genre directions and the signal path's embedding (src/engine/sound.embedding.ts). */
export const MODELS_EMBEDDING_PREFIX = 'musicnn/';
export const MODELS_EMBEDDING = 'musicnn/2';
/** The first engine whose analyses (with MODELS_DIR) carry MODELS_EMBEDDING. */
export const MODELS_EMBEDDING_SINCE = 31;

/** Which analyses have the current embeddings, for messages and descriptions: "signal/4 from trackgraph-engine/29 on; musicnn/2 from 31 on". */
export const EMBEDDINGS_SINCE = `\`${SIGNAL_EMBEDDING}\` from trackgraph-engine/${SIGNAL_EMBEDDING_SINCE} on; \`${MODELS_EMBEDDING}\` (MODELS_DIR) from ${MODELS_EMBEDDING_SINCE} on`;

/** The models' embedding kind of an analysis method (`models:<set>…`), or undefined for the signal path's. */
export function modelsEmbeddingKind(method: string): string | undefined {
  return method !== SIGNAL_METHOD && method.startsWith('models:') ? MODELS_EMBEDDING : undefined;
}
