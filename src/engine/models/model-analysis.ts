import { engineWithMethod } from '../../core/analysis-method';
import { SIGNAL_EMBEDDING } from '../../core/sound';
import type { AudioFeatures } from '../../core/types';
import { modelDescriptors, tagScores } from './model-descriptors';
import { modelsEmbedding } from '../sound.embedding';
import { modelsMethod } from './model-files';
import type { PreparedModels } from './model-prepared';
import { DEFAULT_PATCHES, ModelRunner, choosePatches } from './runtime';

export { MODELS_METHOD, modelsMethod } from './model-files';
export { SIGNAL_METHOD, engineWithMethod, methodOf } from '../../core/analysis-method';

/**
 * The models of one engine thread: loaded when the thread first analyses (a thread that only
 * reads tags never loads TensorFlow.js), then asked for every analysis. The host read, checked and
 * rewrote the files once (model-prepared.ts); a load that fails here (a broken runtime) fails
 * each analysis with the reason; a model that throws fails its analysis only.
 */
export class ThreadModels {
  private ready: Promise<ModelRunner> | undefined;
  /** The method its analyses record (modelsMethod). */
  private readonly method: string;

  /** patches: per window, 0 for all of them; models: as the pool prepared them (prepareModels). */
  constructor(
    private readonly models: PreparedModels,
    private readonly patches = DEFAULT_PATCHES,
  ) {
    this.method = modelsMethod(models.rank, patches);
  }

  /** The runner, loaded on first use. */
  private runner(): Promise<ModelRunner> {
    if (!this.ready) {
      this.ready = ModelRunner.fromPrepared(this.models);
      // Awaited by each analysis; a failure here is theirs to report, not an unhandled rejection.
      this.ready.catch(() => undefined);
    }
    return this.ready;
  }

  /** The features with the model-backed descriptors in place of the formulas', the tagger's tags, the models' sound embedding beside the signal path's, and the method recorded. */
  async apply(features: AudioFeatures, samples: Float32Array, sampleRate: number): Promise<AudioFeatures> {
    let runner: ModelRunner;
    try {
      runner = await this.runner();
    } catch (error) {
      throw new Error(`the models in MODELS_DIR could not be loaded: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const frames = runner.frames(samples, sampleRate);
    const out = runner.run(frames, choosePatches(frames, this.patches));
    const d = modelDescriptors(out);
    const signal = features.embeddings?.find((e) => e.kind === SIGNAL_EMBEDDING)?.vector;
    const embedding = modelsEmbedding(out.embedding, out.classes, signal);
    return {
      ...features,
      ...(embedding ? { embeddings: [...(features.embeddings ?? []), embedding] } : {}),
      mood: { ...features.mood, ...d.mood },
      valence: d.valence,
      danceability: d.danceability,
      instrumentalness: d.instrumentalness,
      tags: tagScores(out.tags),
      engine: engineWithMethod(features.engine, this.method),
    };
  }
}
