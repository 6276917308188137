import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Essentia's trained models, where the tests and benchmarks find them: the folder named by
 * TRACKGRAPH_TEST_MODELS_DIR (laid out as MODELS_DIR; .ci/run passes it). Never bundled
 * (non-commercial licence: README, "Trained models"), never looked for anywhere else: without
 * the variable (empty here), what needs them is skipped, saying so.
 */
export const TEST_MODELS_DIR: string = process.env.TRACKGRAPH_TEST_MODELS_DIR ?? '';

/** Whether the models are there (the tagger's graph stands for the six). */
export const HAVE_TEST_MODELS = TEST_MODELS_DIR !== '' && existsSync(path.join(TEST_MODELS_DIR, 'msd-musicnn-1', 'model.json'));
