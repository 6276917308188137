import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeAnalysisWindow } from '../../src/engine/decode';
import type { DescriptorInputs } from '../../src/engine/descriptor.formulas';
import { createEngine } from '../../src/engine/engine';
import { ModelRunner, choosePatches } from '../../src/engine/models/runtime';
import { patchCount } from '../../src/engine/models/musicnn.input';
import { ENGINE_ID } from '../../src/engine/version';
import { ANALYSIS_RATE } from '../../src/engine/window';
import { type CachedModels, DescriptorCache } from './descriptor-cache';
import { windowHalves } from './window-halves';

/** The shortest window whose halves are measured apart: two of the models' 3 s patches. */
const HALVED_SECONDS = 6;

export interface MeasureOptions {
  /** Folder of the per-corpus JSON caches (DescriptorCache). */
  cacheDir: string;
  /** Patches per window the models run on (0: all, as MODELS_PATCHES). */
  patches: number;
  /** Measure the signal path again even where the cache holds this engine's measurements. */
  resignal?: boolean;
  /** Only the models' outputs (the signal path is left as cached). */
  modelsOnly?: boolean;
  /** Also measure each window's two halves apart (bench:descriptors' self-agreement). */
  halves?: boolean;
}

/** One clip as measured: the engine's raw measurements and, when the models ran, their outputs. */
export interface MeasuredClip {
  corpus: string;
  file: string;
  inputs: DescriptorInputs;
  models?: CachedModels;
  /** The formulas' inputs measured on the window's first and second half alone. */
  signalHalves?: DescriptorInputs[];
}

/**
 * Measures a corpus's clips (their 30 s analysis windows, decode.ts) through the engine and,
 * given a runner, through the models; each clip once, as long as its file and the engine are
 * unchanged (the cache, written after each clip, resumes an interrupted run). Clips the signal
 * path has no measurement of (modelsOnly on a fresh cache) are left out.
 */
export async function measureCorpus(
  corpus: string,
  files: readonly string[],
  runner: (() => Promise<ModelRunner>) | undefined,
  o: MeasureOptions,
): Promise<MeasuredClip[]> {
  const cache = DescriptorCache.forCorpus(o.cacheDir, corpus);
  const engine = createEngine({ windowSeconds: 30 });
  const clips: MeasuredClip[] = [];
  for (const full of files) {
    const file = path.basename(full);
    const entry = cache.get(file, full);
    const staleSignal = o.resignal || entry.signal?.engine !== ENGINE_ID || (o.halves && entry.signal.halves === undefined);
    const needSignal = !o.modelsOnly && staleSignal;
    const needModels = runner !== undefined && !entry.models;
    if (needSignal || needModels) {
      const audio = await decodeAnalysisWindow(new Uint8Array(readFileSync(full)), 30);
      if (needModels) {
        const started = process.cpuUsage();
        const r = await runner();
        const frames = r.frames(audio.samples, 44100);
        const choice = choosePatches(frames, o.patches);
        const per = r.perPatch(frames, choice.patches);
        const patches = { used: per.patches.length, of: patchCount(frames.frames) };
        // Over every patch, also each half of the window apart (the middle patch of an odd count
        // left out): how far the models agree with themselves from one part of a song to the next.
        const first = [...Array(Math.floor(patches.used / 2)).keys()];
        const last = first.map((i) => patches.used - first.length + i);
        const halves = patches.used === patches.of && first.length >= 1 ? [r.average(per, undefined, first), r.average(per, undefined, last)] : undefined;
        entry.models = { ...r.average(per, choice.weights), patches, ...(halves && { halves }) } satisfies CachedModels;
        const cpu = process.cpuUsage(started);
        process.stderr.write(`${corpus}/${file}: models over ${patches.used} of ${patches.of} patches, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU\n`);
      }
      if (needSignal) {
        // Halves of a window shorter than two of the models' patches would say little: none.
        const halves = o.halves && audio.samples.length >= HALVED_SECONDS * ANALYSIS_RATE ? windowHalves(audio).map((h) => engine.measureWindow(h).inputs) : [];
        entry.signal = { engine: ENGINE_ID, inputs: engine.measureWindow(audio).inputs, ...(o.halves && { halves }) };
      }
      cache.save();
    }
    if (entry.signal && (!staleSignal || needSignal)) {
      const signalHalves = entry.signal.halves as DescriptorInputs[] | undefined;
      clips.push({ corpus, file, inputs: entry.signal.inputs as DescriptorInputs, ...(entry.models && { models: entry.models }), ...(signalHalves && { signalHalves }) });
    }
  }
  return clips;
}
