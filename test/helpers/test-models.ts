import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Essentia's trained models, where the tests and benchmarks find them: TRACKGRAPH_TEST_MODELS_DIR,
 * else `../shared/models` beside the repository. Never bundled (non-commercial licence: README,
 * "Trained models"); a clone without them skips what needs them, saying so.
 */
export const TEST_MODELS_DIR = process.env.TRACKGRAPH_TEST_MODELS_DIR ?? path.resolve(__dirname, '..', '..', '..', 'shared', 'models');

/** Whether the models are there (the tagger's graph stands for the six). */
export const HAVE_TEST_MODELS = existsSync(path.join(TEST_MODELS_DIR, 'msd-musicnn-1', 'model.json'));
