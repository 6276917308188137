import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
// essentia.js calls chained ops (tensor.concat, as3D) that tfjs-core alone does not install.
import '@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops';
import { CLASSIFIERS, TAGGER, readModelFiles } from '../../src/engine/models/model-files';
import { MUSICNN_HOP } from '../../src/engine/models/musicnn.input';
import { startBackend } from '../../src/engine/models/runtime';
import { type EssentiaMusicnn, type EssentiaMusicnnInput, type TfInputExtractor, loadEssentia, resampleForEssentia } from '../../measure/models/essentia-model';

/**
 * essentia.js's own MusiCNN pipeline, as its mood-classifiers demo runs it: the known tool the
 * engine's model path is measured beside. The window resampled to 16 kHz (resampleForEssentia),
 * framed by `EssentiaTFInputExtractor(…,
 * 'musicnn')`, then each model as trained, loaded by `TensorflowMusiCNN` on the same tfjs WebAssembly
 * backend as the engine's, over every patch of the demo's layout (the last one zero-padded) in
 * one batch: `predict(input, true)`.
 */
export class EssentiaPipeline {
  private constructor(
    private readonly extractor: TfInputExtractor,
    /** The five classifiers (CLASSIFIERS' order), then the tagger. */
    private readonly models: EssentiaMusicnn[],
  ) {}

  static async load(dir: string): Promise<EssentiaPipeline> {
    await startBackend();
    const { wasm, model } = await loadEssentia();
    const files = new Map(readModelFiles(dir).map((f) => [f.folder.folder, f]));
    const models: EssentiaMusicnn[] = [];
    // TensorflowMusiCNN calls tf.loadGraphModel(path): here the path is an in-memory handler of
    // the files as they are on disk (the engine's checks already passed in readModelFiles).
    const tfjs = { ...tf, loadGraphModel };
    for (const folder of [...CLASSIFIERS.map((c) => c.folder), TAGGER.folder]) {
      const { modelJson, weights } = files.get(folder)!;
      const handler = tf.io.fromMemory({
        modelTopology: modelJson.modelTopology,
        format: modelJson.format,
        weightSpecs: modelJson.weightsManifest.flatMap((m) => m.weights) as tf.io.WeightsManifestEntry[],
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer,
      });
      const musicnn = new model.TensorflowMusiCNN(tfjs, handler);
      await musicnn.initialize();
      models.push(musicnn);
    }
    return new EssentiaPipeline(new model.EssentiaTFInputExtractor(wasm, 'musicnn'), models);
  }

  /** The window at 16 kHz, as essentia.js's extractor wants it. */
  resample(samples: Float32Array, sampleRate: number): Float32Array {
    return resampleForEssentia(samples, sampleRate);
  }

  frames(samples16k: Float32Array): EssentiaMusicnnInput {
    return this.extractor.computeFrameWise(samples16k, MUSICNN_HOP);
  }

  /** The five classifiers' rows per patch (the demo's layout), in CLASSIFIERS' order. */
  async classifiers(input: EssentiaMusicnnInput): Promise<number[][][]> {
    return Promise.all(this.models.slice(0, CLASSIFIERS.length).map((m) => m.predict(input, true)));
  }

  /**
   * The tagger's 50 tags per patch. Its graph has a second input (is_training) that nothing
   * reads, which tfjs also counts as an output, so predict() gets two tensors back and fails:
   * here are predict()'s own steps with the output named.
   */
  async tagger(input: EssentiaMusicnnInput): Promise<number[][]> {
    const m = this.models[CLASSIFIERS.length]!;
    const features = m.arrayToTensorAsBatches(input.melSpectrum, [input.frameSize, input.melBandsSize], input.patchSize, true);
    const out = m.model.execute([...m.disambiguateExtraInputs(), features], 'model/Sigmoid');
    (features as tf.Tensor).dispose();
    try {
      return await out.array();
    } finally {
      out.dispose();
    }
  }

  dispose(): void {
    for (const m of this.models) m.dispose();
    this.extractor.delete();
  }
}
