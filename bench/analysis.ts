/**
 * Analysis throughput and memory: `npm run bench:analysis -- [options] [files...]`
 *
 *   files              audio files to analyse (default: generated 30 s songs as WAV)
 *   --clips N          clips per throughput run (default 12)
 *   --workers N        threads of the parallel run (default: cores)
 *   --long             also analyse one 10-minute file (generated WAV) and report the peak RSS it causes
 *   --long-file F      the same with a given long file (e.g. a 10-minute MP3)
 *   --soak N           run N analyses on the parallel pool and report RSS start/end (memory flat?)
 *   --stages           time each stage in this thread (first clip apart, then the median)
 *   --models DIR       also the model-backed descriptors (MODELS_DIR, Essentia's models): their
 *                      stages with --stages, and a 1-worker run of the pool given the models
 *   --patches N        patches per window the models run on (MODELS_PATCHES; default 0: all)
 *   --rank N           rank of the models' factorised convolutions (MODELS_RANK; default
 *                      DEFAULT_RANK; 0: as trained)
 *   --essentia         with --stages --models: also essentia.js's own pipeline per clip, the known
 *                      tool's row (bench/lib/essentia-pipeline.ts), and the models' CPU as a share
 *                      of it, a ratio the machine's load moves far less than either figure
 *
 * RSS is the whole process (main thread + worker threads + WASM heaps), sampled every 25 ms.
 * The npm script runs under `node --single-threaded-gc`, as the processes that only analyse do
 * (`npm run worker`, `analyse`, `index`); `npx tsx bench/analysis.ts` measures V8's default GC,
 * as in `npm start`'s embedded pool. The first line says which.
 */
import { harmonyColour } from '../src/engine/tonal.colour';
import { spectralShape } from '../src/engine/timbre.shape';
import { cepstralFrames, supervector } from '../src/engine/sound.frames';
import { FITTED_SOUND_WEIGHTS } from '../src/engine/sound.embedding';
import { measureVoice } from '../src/engine/timbre.voice';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { AudioInput } from '../src/core/types';
import { createEnginePool, type EnginePool } from '../src/engine/engine.pool';
import { decodeAnalysisWindow } from '../src/engine/decode';
import { createEngine } from '../src/engine/engine';
import { analyseRhythm } from '../src/engine/rhythm';
import { onsetEnvelopes } from '../src/engine/rhythm.onsets';
import { Stft } from '../src/engine/signal.stft';
import { segmentsOf } from '../src/engine/segments';
import { TimbreMeter } from '../src/engine/timbre.stats';
import { analyseTonal } from '../src/engine/tonal';
import { chromaOf } from '../src/engine/tonal.chroma';
import { CLASSIFIERS } from '../src/engine/models/model-files';
import { patchCount } from '../src/engine/models/musicnn.input';
import { DEFAULT_PATCHES, DEFAULT_RANK, type ModelOutputs, ModelRunner, choosePatches } from '../src/engine/models/runtime';
import { ANALYSIS_RATE } from '../src/engine/window';
import { RATE, encodeWav, song } from '../measure/audio/audio-signals';
import { EssentiaPipeline } from './lib/essentia-pipeline';
import { median } from '../measure/stats';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    clips: { type: 'string', default: '12' },
    workers: { type: 'string', default: String(os.availableParallelism()) },
    long: { type: 'boolean', default: false },
    'long-file': { type: 'string' },
    soak: { type: 'string' },
    stages: { type: 'boolean', default: false },
    models: { type: 'string' },
    patches: { type: 'string', default: String(DEFAULT_PATCHES) },
    rank: { type: 'string', default: String(DEFAULT_RANK) },
    essentia: { type: 'boolean', default: false },
  },
});

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

class RssSampler {
  peak = 0;
  private readonly timer = setInterval(() => this.sample(), 25);
  sample(): number {
    const rss = process.memoryUsage.rss();
    this.peak = Math.max(this.peak, rss);
    return rss;
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

/** Six distinct generated songs (tempi 80–165 BPM, major and minor), reused round-robin. */
const generated: Uint8Array[] = [];
function clipAt(i: number): Uint8Array {
  const keys = [0, 2, 4, 5, 7, 9];
  const left = song(30, { bpm: 80 + 17 * i, tonic: keys[i]!, minor: i % 2 === 1, bright: i % 3 === 0, seed: i + 1 });
  return encodeWav([left, left], RATE);
}

function inputs(count: number): AudioInput[] {
  return Array.from({ length: count }, (_, i) => {
    if (positionals.length > 0) return { bytes: new Uint8Array(readFileSync(positionals[i % positionals.length]!)) };
    return { bytes: (generated[i % 6] ??= clipAt(i % 6)) };
  });
}

/** A stereo 16-bit WAV of `minutes`, one generated song repeated. */
function longWav(minutes: number): Uint8Array {
  const pcm = new Int16Array(clipAt(0).buffer, 44);
  const long = new Float32Array(minutes * 60 * RATE);
  for (let i = 0; i < long.length; i++) long[i] = pcm[(i * 2) % pcm.length]! / 32768;
  return encodeWav([long, long], RATE);
}

/** Clips each thread analyses before the timed run. */
const WARM_UP_CLIPS = 4;

/** CPU ms of every thread of this process so far, by thread id (Linux /proc; empty elsewhere). */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  let ids: string[];
  try {
    ids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  for (const id of ids) {
    try {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(id, (Number(fields[11]) + Number(fields[12])) * tick);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

interface Throughput {
  perSecond: number;
  medianMs: number;
  cpuMsPerClip: number;
  /** CPU ms per clip of the `threads` busiest threads but the main one (the analysis threads) and of the others (V8's GC and compiler helpers, libuv). */
  analysisThreadsMsPerClip?: number;
  otherThreadsMsPerClip?: number;
  /** CPU ms per clip of this (the pool's) main thread. */
  mainThreadMsPerClip?: number;
  /**
   * Analysis threads' CPU over threads x wall time: below 1 when they waited (for a core held by
   * other processes, between tasks, or at the end of the run with fewer clips left than threads).
   */
  onCpu?: number;
}

async function throughput(pool: EnginePool, clips: AudioInput[], concurrent: boolean): Promise<Throughput> {
  // Warm-up, not timed: every thread loads the decoders and analyses WARM_UP_CLIPS
  // clips, by which time V8 has optimised the analysis code (the first clip of a thread costs
  // ~2x the CPU of later ones, the next few still ~10 % more). Every thread gets the same warm-up,
  // so the timed clips run on equally warm threads in both modes.
  for (let round = 0; round < WARM_UP_CLIPS; round++) {
    await Promise.all(Array.from({ length: pool.threads }, () => pool.analyse(clips[round % clips.length]!)));
  }
  const times: number[] = [];
  const timed = async (input: AudioInput): Promise<void> => {
    const t = performance.now();
    await pool.analyse(input);
    times.push(performance.now() - t);
  };
  const threadsBefore = threadCpu();
  const start = performance.now();
  const cpu = process.cpuUsage();
  if (concurrent) await Promise.all(clips.map(timed));
  else for (const c of clips) await timed(c);
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - start;
  const seconds = wallMs / 1000;
  const threadsAfter = threadCpu();
  const mainMs = (threadsAfter.get(String(process.pid)) ?? 0) - (threadsBefore.get(String(process.pid)) ?? 0);
  const perThread = [...threadsAfter]
    .filter(([id]) => id !== String(process.pid))
    .map(([id, ms]) => ms - (threadsBefore.get(id) ?? 0))
    .sort((a, b) => b - a);
  const analysis = perThread.slice(0, pool.threads).reduce((a, b) => a + b, 0);
  const others = perThread.slice(pool.threads).reduce((a, b) => a + b, 0);
  return {
    perSecond: clips.length / seconds,
    medianMs: median(times),
    // Process CPU (all threads): if it stays the same per clip with more workers, the threads do
    // not get in each other's way and throughput scales with the free cores.
    cpuMsPerClip: (used.user + used.system) / 1000 / clips.length,
    ...(perThread.length > 0
      ? {
          analysisThreadsMsPerClip: analysis / clips.length,
          otherThreadsMsPerClip: others / clips.length,
          mainThreadMsPerClip: mainMs / clips.length,
          onCpu: analysis / (pool.threads * wallMs),
        }
      : {}),
  };
}

/** The per-thread split, when /proc gave it: analysis thread(s), V8 helper threads (GC, JIT), the pool's main thread. */
function threadSplit(t: Throughput): string {
  if (t.analysisThreadsMsPerClip === undefined) return '';
  return (
    ` (analysis thread(s) ${t.analysisThreadsMsPerClip.toFixed(0)} + helper threads ${t.otherThreadsMsPerClip!.toFixed(0)} + main thread ${t.mainThreadMsPerClip!.toFixed(0)}; ` +
    `analysis threads on a CPU ${(100 * t.onCpu!).toFixed(0)} % of the run)`
  );
}

/**
 * CPU ms of every stage over the clips, run in this thread (no pool): the first clip apart (the
 * start-up: module loading, V8 compiling the code), then the median over the others. CPU time
 * (process.cpuUsage; nothing else runs in this process meanwhile) is what one core spends,
 * whatever else the machine is doing; wall time includes waiting for a busy CPU.
 */
async function stages(clips: AudioInput[]): Promise<void> {
  const engine = createEngine({ windowSeconds: 30 });
  const runner = values.models ? await ModelRunner.load(values.models, Number(values.rank)) : undefined;
  if (runner) console.log(`models: ${values.models} (WASM SIMD ${runner.simd ? 'on' : 'off'}, 1 thread)`);
  const essentia = runner && values.essentia ? await EssentiaPipeline.load(values.models!) : undefined;
  const stft = new Stft();
  const timbre = new TimbreMeter();
  const cpu: Record<string, number[]> = {};
  const wall: Record<string, number[]> = {};
  const time = async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
    const t = performance.now();
    const c = process.cpuUsage();
    const out = await fn();
    const used = process.cpuUsage(c);
    (cpu[name] ??= []).push((used.user + used.system) / 1000);
    (wall[name] ??= []).push(performance.now() - t);
    return out;
  };
  // The largest |engine − essentia.js| of the five classifiers over the clips: over the whole
  // patches the engine reads, and over every patch of the demo's layout (its padded last one).
  const apart = { whole: 0, demo: 0 };
  for (const input of clips) {
    if (!('bytes' in input)) continue;
    let ours: ModelOutputs | undefined;
    await time('decode + analysis (what a worker does per clip)', async () => engine.analyseWindow(await decodeAnalysisWindow(input.bytes, 30)));
    const audio = await time('  decode (headers, decoder, mono window, loudness)', () => decodeAnalysisWindow(input.bytes, 30));
    const half = await time('  22.05 kHz (half-band FIR)', () => stft.halfRate(audio.samples));
    const spec = await time('  STFT (2048 / 512)', () => stft.spectrogram(half));
    const envelopes = await time('  onset envelopes', () => onsetEnvelopes(spec));
    const chroma = await time('  chroma', () => chromaOf(spec));
    const tonal = await time('  key', () => analyseTonal(chroma));
    await time('  rhythm (periods, levels, beats, meter)', () => analyseRhythm(envelopes, chroma, tonal.tonality));
    await time('  timbre statistics', () => timbre.measure(spec));
    await time('  voice (held and sung partials)', () => measureVoice(spec));
    await time('  harmony colour (major chords, dissonance)', () => harmonyColour(chroma));
    await time('  spectral shape (MFCCs, octave contrast)', () => spectralShape(spec));
    await time("  sound embedding's bag of frames (cepstral frames, supervector)", () => {
      const frames = cepstralFrames(spec);
      return FITTED_SOUND_WEIGHTS.signal?.frames ? supervector(FITTED_SOUND_WEIGHTS.signal.frames.gmm, frames, FITTED_SOUND_WEIGHTS.signal.frames.relevance) : frames;
    });
    await time('  segments (onsets, loudness, pitches, timbre)', () => segmentsOf({ spec, chroma, allFlux: envelopes.all, fps: envelopes.fps, offsetSeconds: 0 }));
    await time('  all analysis after decoding', () => engine.analyseWindow(audio));
    if (runner) {
      const frames = await time('models: 16 kHz (polyphase) + MusiCNN frames', () => runner.frames(audio.samples, ANALYSIS_RATE));
      const budget = Number(values.patches);
      const choice = await time(`models: choice of patches (MODELS_PATCHES=${budget})`, () => choosePatches(frames, budget));
      await time(`models: 5 classifiers + tagger over ${choice.patches.length} patches`, () => runner.run(frames, choice));
      ours = await time(MODELS_ALL, () => {
        const f = runner.frames(audio.samples, ANALYSIS_RATE);
        return runner.run(f, choosePatches(f, budget));
      });
    }
    if (essentia && ours) {
      const x16 = await time(ESSENTIA.resample, () => essentia.resample(audio.samples, ANALYSIS_RATE));
      const input = await time(ESSENTIA.frames, () => essentia.frames(x16));
      const rows = await time(ESSENTIA.classifiers, () => essentia.classifiers(input));
      await time(ESSENTIA.tagger, () => essentia.tagger(input));
      // The pipeline timed is the one the engine is held to: the same classes, patch by patch.
      const classes = ours.classes;
      CLASSIFIERS.forEach((c, k) => {
        const mean = (patches: number[][]): number => patches.reduce((sum, row) => sum + row[c.positive]!, 0) / patches.length;
        const engine = classes[c.name];
        apart.whole = Math.max(apart.whole, Math.abs(engine - mean(rows[k]!.slice(0, patchCount(input.frameSize)))));
        apart.demo = Math.max(apart.demo, Math.abs(engine - mean(rows[k]!)));
      });
    }
  }
  console.log(`stages, one thread, CPU ms per clip: first clip (start-up) and median of the other ${clips.length - 1}; median wall ms`);
  for (const [name, xs] of Object.entries(cpu)) {
    console.log(`  ${name.padEnd(52)} first ${xs[0]!.toFixed(0).padStart(5)}   median ${median(xs.slice(1)).toFixed(0).padStart(4)} CPU, ${median(wall[name]!.slice(1)).toFixed(0).padStart(4)} wall`);
  }
  if (essentia) {
    essentia.dispose();
    // Clip by clip, so that a slow moment of the machine weighs on both sides of each ratio.
    const at = (name: string): number[] => cpu[name]!.slice(1);
    const ours = at(MODELS_ALL);
    const classifiers = at(ESSENTIA.classifiers);
    const five = classifiers.map((ms, i) => ms + at(ESSENTIA.frames)[i]!);
    const six = five.map((ms, i) => ms + at(ESSENTIA.tagger)[i]!);
    const share = (theirs: number[]): string => median(ours.map((ms, i) => ms / theirs[i]!)).toFixed(3);
    console.log(
      `the model descriptors' CPU as a share of essentia.js's, median of each clip's ratio over clips 2-${clips.length} (its resampling not counted): ` +
        `${share(classifiers)} of its 5 classifiers, ${share(five)} of its frames + 5 classifiers, ${share(six)} of its frames + the same 6 models`,
    );
    console.log(
      `the same clips' 5 classifiers, largest |engine (MODELS_PATCHES=${values.patches}) − essentia.js| over the clips: ` +
        `${apart.whole.toFixed(3)} over the whole patches the engine reads, ${apart.demo.toFixed(3)} over the demo's every patch (its zero-padded last one counted)`,
    );
  }
}

/** The stages of essentia.js's pipeline (bench/lib/essentia-pipeline.ts), as --stages names them. */
const ESSENTIA = {
  resample: 'essentia.js: 16 kHz (wave-resampler, sinc; not counted)',
  frames: 'essentia.js: MusiCNN frames (EssentiaTFInputExtractor)',
  classifiers: 'essentia.js: 5 classifiers as trained, demo layout',
  tagger: 'essentia.js: the tagger as trained, demo layout',
} as const;
const MODELS_ALL = 'models: all of the above (model descriptors, per clip)';

/**
 * What the machine gives right now: the same busy loop in 1 thread and in 2 threads at once
 * (twice the work). On an idle 2-core machine the speed-up is ~2; a lower figure means other
 * processes hold the cores, and the pool's speed-up should be read against it.
 */
async function parallelismControl(): Promise<number> {
  const code = 'let x = 0; for (let i = 0; i < 2e8; i++) x += i % 7; require("node:worker_threads").parentPort.postMessage(x);';
  const run = async (n: number): Promise<number> => {
    const t = performance.now();
    await Promise.all(Array.from({ length: n }, () => new Promise((resolve) => new Worker(code, { eval: true }).once('message', resolve))));
    return performance.now() - t;
  };
  const one = await run(1);
  const two = await run(2);
  return (2 * one) / two;
}

async function main(): Promise<void> {
  if (values.essentia && !(values.stages && values.models)) {
    console.error('usage: --essentia times essentia.js beside the models stage by stage: give it with --stages --models DIR');
    process.exit(2);
  }
  const clipCount = Number(values.clips);
  const workers = Number(values.workers);
  const clips = inputs(clipCount);
  const source = positionals.length > 0 ? `${positionals.length} file(s) from the command line` : 'generated 30 s stereo WAV songs';
  // `npm run bench:analysis` runs under the flag `npm run worker` and `npm run analyse` use.
  const gc = process.execArgv.includes('--single-threaded-gc') ? 'single-threaded GC (as npm run worker)' : "V8's default parallel GC (as npm start)";
  console.log(`clips: ${clipCount} (${source}); cores: ${os.availableParallelism()}; node ${process.version}; ${gc}`);
  if (values.stages) {
    await stages(clips);
  }
  const sampler = new RssSampler();

  console.log(`control: a busy loop in 2 threads runs ${(await parallelismControl()).toFixed(2)}x the work of 1 thread per unit time`);
  const one = createEnginePool({ workers: 1, timeoutMs: 120_000, windowSeconds: 30 });
  const serial = await throughput(one, clips, false);
  await one.close();
  console.log(
    `1 worker : ${serial.perSecond.toFixed(2)} clips/s, median ${serial.medianMs.toFixed(0)} ms per clip (decode + all features), ` +
      `${serial.cpuMsPerClip.toFixed(0)} ms CPU per clip${threadSplit(serial)}; load average ${os.loadavg()[0]!.toFixed(1)}`,
  );

  if (values.models) {
    const withModels = createEnginePool({ workers: 1, timeoutMs: 300_000, windowSeconds: 30, modelsDir: values.models, modelsPatches: Number(values.patches), modelsRank: Number(values.rank) });
    const m = await throughput(withModels, clips, false);
    await withModels.close();
    console.log(
      `1 worker with MODELS_DIR (MODELS_PATCHES=${values.patches}, MODELS_RANK=${values.rank}): ${m.perSecond.toFixed(2)} clips/s, median ${m.medianMs.toFixed(0)} ms per clip (decode + signal features + model descriptors), ` +
        `${m.cpuMsPerClip.toFixed(0)} ms CPU per clip${threadSplit(m)}`,
    );
  }

  const pool = createEnginePool({ workers, timeoutMs: 300_000, windowSeconds: 30 });
  const parallel = await throughput(pool, clips, true);
  const control = await parallelismControl();
  console.log(
    `${workers} workers: ${parallel.perSecond.toFixed(2)} clips/s, speed-up ${(parallel.perSecond / serial.perSecond).toFixed(2)}x, ` +
      `${parallel.cpuMsPerClip.toFixed(0)} ms CPU per clip${threadSplit(parallel)}; load average ${os.loadavg()[0]!.toFixed(1)}; ` +
      `peak RSS so far ${mb(sampler.peak)}; control right after: ${control.toFixed(2)}x`,
  );
  if (serial.analysisThreadsMsPerClip !== undefined) {
    // Wall time per clip of 1 worker on a free core = its analysis thread's CPU per clip; N workers
    // on N free cores finish at most N cores / (process CPU per clip) clips per second.
    const bound = (workers * serial.analysisThreadsMsPerClip) / parallel.cpuMsPerClip;
    console.log(
      `CPU-time estimate of the speed-up on ${workers} free cores: ${workers} x ${serial.analysisThreadsMsPerClip.toFixed(0)} ms (1 worker's analysis thread per clip) / ` +
        `${parallel.cpuMsPerClip.toFixed(0)} ms (process CPU per clip with ${workers} workers) = ${bound.toFixed(2)}x (little affected by load; the wall ratio above can reach it only on an otherwise idle machine)`,
    );
  }

  if (values.long || values['long-file']) {
    const bytes = values['long-file'] ? new Uint8Array(readFileSync(values['long-file'])) : longWav(10);
    const before = sampler.sample();
    sampler.peak = before;
    const t = performance.now();
    const f = await pool.analyse({ bytes });
    console.log(
      `long file (${mb(bytes.length)} of bytes): ${(performance.now() - t).toFixed(0)} ms, duration ${f.durationMs} ms; ` +
        `RSS before ${mb(before)}, peak during ${mb(sampler.peak)} (+${mb(sampler.peak - before)}; ` +
        `its full-rate stereo PCM as Float32 would be ${mb((f.durationMs / 1000) * 44100 * 2 * 4)})`,
    );
  }

  if (values.soak) {
    const n = Number(values.soak);
    const startRss = sampler.sample();
    const marks: string[] = [];
    let done = 0;
    const t = performance.now();
    const queue = Array.from({ length: n }, (_, i) => clips[i % clips.length]!);
    await Promise.all(
      queue.map(async (input) => {
        await pool.analyse(input);
        done++;
        if (done % Math.max(1, Math.floor(n / 5)) === 0) marks.push(`${done}: ${mb(sampler.sample())}`);
      }),
    );
    console.log(
      `soak: ${n} analyses in ${((performance.now() - t) / 1000).toFixed(0)} s; RSS start ${mb(startRss)}, end ${mb(sampler.sample())}; ` +
        `along the way ${marks.join(', ')}`,
    );
  }
  await pool.close();
  sampler.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
