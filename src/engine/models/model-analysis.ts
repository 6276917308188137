import { engineWithMethod } from '../../core/analysis-method';
import type { AudioFeatures } from '../../core/types';
import { modelDescriptors, tagScores } from './model-descriptors';
import { modelsMethod } from './model-files';
import type { SharedWindows } from './musicnn.factorise';
import { DEFAULT_PATCHES, DEFAULT_RANK, ModelRunner, choosePatches } from './runtime';

export { MODELS_METHOD, modelsMethod } from './model-files';
export { SIGNAL_METHOD, engineWithMethod, methodOf } from '../../core/analysis-method';

/**
 * The models of one engine thread: loaded once when the thread starts, then asked for every
 * analysis. A load that fails fails each analysis with the reason (the host checked the files
 * at start, so this is a file changed since, or a broken runtime); a model that throws fails
 * its analysis only.
 */
export class ThreadModels {
  private readonly ready: Promise<ModelRunner>;
  /** The method its analyses record (modelsMethod). */
  private readonly method: string;

  /**
   * patches: per window, 0 for all of them; rank: of the factorised convolutions, 0 for none;
   * shared: the classifiers' shared windows, as the pool computed them (classifierWindows).
   */
  constructor(
    dir: string,
    private readonly patches = DEFAULT_PATCHES,
    rank = DEFAULT_RANK,
    shared?: SharedWindows,
  ) {
    this.ready = ModelRunner.load(dir, rank, shared);
    this.method = modelsMethod(rank, patches);
    // Awaited by each analysis; a failure here is theirs to report, not an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  /** The features with the model-backed descriptors in place of the formulas', the tagger's tags and the method recorded. */
  async apply(features: AudioFeatures, samples: Float32Array, sampleRate: number): Promise<AudioFeatures> {
    let runner: ModelRunner;
    try {
      runner = await this.ready;
    } catch (error) {
      throw new Error(`the models in MODELS_DIR could not be loaded: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const frames = runner.frames(samples, sampleRate);
    const out = runner.run(frames, choosePatches(frames, this.patches));
    const d = modelDescriptors(out);
    return {
      ...features,
      mood: { ...features.mood, ...d.mood },
      valence: d.valence,
      danceability: d.danceability,
      instrumentalness: d.instrumentalness,
      tags: tagScores(out.tags),
      engine: engineWithMethod(features.engine, this.method),
    };
  }
}
