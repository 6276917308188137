import '../entry';
import path from 'node:path';
import { TOP_LEVEL, valueOf } from '../core/descriptors';
import { parseArgs } from 'node:util';
import { toContractAnalysis } from '../analysis/contract';
import { ConfigError, loadConfig } from '../config';
import { ANALYSIS_FAILED_MESSAGE, shownError } from '../core/errors';
import { keyString } from '../core/music';
import { type TempoRange, tempoRangeFlag, withTempoRange } from '../core/tempo-range';
import { trackKey } from '../core/track-key';
import type { AnalysisEngine, AudioFeatures, AudioProbe, TrackAnalysis } from '../core/types';
import { createEnginePool } from '../engine/engine.pool';
import { nameFromPath } from '../sources/library/library.index';

const USAGE = `usage: npm run analyse -- [--json] [--bpm-range <min>-<max>] <file...>
  Analyses local audio files (MP3, AAC/ALAC in M4A, Ogg Vorbis/Opus, FLAC, WAV, AIFF, WMA, WavPack,
  TTA, CAF, Matroska/WebM, AC-3, DTS: docs/FEATURES.md, "Audio formats") on the service's engine pool.
  --json   one line per file: {"file", "data": <contract analysis>, "estimates": {keyConfidence,
           modeConfidence, tempoConfidence, timeSignatureConfidence, tuningHz}} or
           {"file", "error": {code, message}}
  --bpm-range  the tempo counted within this range, as 70-140 (a DJ's crate: drum and bass
           160-180, hip-hop 80-100): the most probable beat grid at its octave inside it; its
           tempoConfidence is that grid's probability (docs/FEATURES.md, "A BPM range")
  Environment: ANALYSIS_WORKERS, ANALYSIS_TIMEOUT_MS, ANALYSIS_WINDOW_S (as for the server).
  Exit status 1 if any file failed.`;


/**
 * How sure the engine is of the key, mode, tempo and meter (0–1, as GraphQL's `confidence` and
 * Spotify's `*_confidence`), and the tuning it read: beside the contract's object, so that a file
 * can be judged without a server (docs/FEATURES.md, "Confidences" and "Tuning").
 */
export interface Estimates {
  keyConfidence: number;
  modeConfidence: number;
  tempoConfidence: number;
  timeSignatureConfidence: number;
  tuningHz: number | null;
}

export type FileOutcome =
  | { file: string; data: TrackAnalysis; estimates: Estimates }
  | { file: string; error: { code: string; message: string } };

function estimatesOf(f: AudioFeatures): Estimates {
  return {
    keyConfidence: f.confidence.key,
    modeConfidence: f.confidence.mode,
    tempoConfidence: f.confidence.tempo,
    timeSignatureConfidence: f.confidence.timeSignature,
    tuningHz: f.tuningHz ?? null,
  };
}

/** Artist and title from the tags, else from an "Artist - Title.ext" file name. */
export function identify(file: string, probe: AudioProbe | undefined): { artist: string; trackName: string } {
  // The library's rule for a file name alone (no folder artist: the CLI's files stand by themselves).
  const fromName = nameFromPath(path.basename(file));
  return { artist: probe?.artist ?? fromName.artist, trackName: probe?.title ?? fromName.trackName };
}

/** Analyses one file: tags and audio in parallel on the pool, shaped as the contract's object (its tempo within `range` when given). */
export async function analyseFile(engine: AnalysisEngine, file: string, range?: TempoRange): Promise<FileOutcome> {
  const input = { path: path.resolve(file) };
  const [probe, features] = await Promise.allSettled([engine.probe(input), engine.analyse(input)]);
  if (features.status === 'rejected') {
    const e = features.reason as unknown;
    const error = shownError(e, ANALYSIS_FAILED_MESSAGE);
    return { file, error };
  }
  const { artist, trackName } = identify(file, probe.status === 'fulfilled' ? probe.value : undefined);
  const measured = range ? withTempoRange(features.value, range) : features.value;
  const data = toContractAnalysis({
    trackKey: trackKey(artist, trackName),
    artist,
    trackName,
    features: measured,
    analysedAt: new Date().toISOString(),
    source: 'file',
  });
  return { file, data, estimates: estimatesOf(measured) };
}

function pad(value: string, width: number): string {
  return value.length >= width ? value : value + ' '.repeat(width - value.length);
}

const COLUMNS: ReadonlyArray<readonly [string, number, (d: TrackAnalysis) => string]> = [
  ['duration', 8, (d) => `${(d.duration_ms / 1000).toFixed(1)}s`],
  ['tempo', 6, (d) => d.tempo.toFixed(1)],
  ['key', 9, (d) => keyString(d.key, d.mode)],
  ['meter', 5, (d) => `${d.timeSignature}/4`],
  // Every descriptor of the registry, by its name.
  ...TOP_LEVEL.map((desc) => [desc.name, desc.name.length, (d: TrackAnalysis) => (valueOf(d, desc) ?? NaN).toFixed(2)] as const),
  ['mood', 10, (d) => topMood(d)],
];

function topMood(d: TrackAnalysis): string {
  const [name] = Object.entries(d.mood).sort((a, b) => b[1] - a[1])[0] ?? ['-'];
  return String(name);
}

/** A readable table: one row per file, failures with their code and message. */
export function formatTable(outcomes: readonly FileOutcome[]): string[] {
  const fileWidth = Math.min(40, Math.max(4, ...outcomes.map((o) => path.basename(o.file).length)));
  const header = [pad('file', fileWidth), ...COLUMNS.map(([name, width]) => pad(name, width))].join('  ');
  const rows = outcomes.map((o) => {
    const name = pad(path.basename(o.file).slice(0, fileWidth), fileWidth);
    if ('error' in o) return `${name}  ${o.error.code}: ${o.error.message}`;
    return [name, ...COLUMNS.map(([, width, cell]) => pad(cell(o.data), width))].join('  ');
  });
  return [header, ...rows];
}

/**
 * Runs the CLI on `argv` with an engine from `makeEngine`, told how many files there are (a
 * thread more than files would only start and wait); returns the exit status.
 */
export async function runAnalyseCli(
  argv: string[],
  out: (line: string) => void,
  makeEngine: (files: number) => AnalysisEngine,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, 'bpm-range': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    // An unknown option, or one without its value: said, with the usage, never a stack trace.
    out(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (values.help || positionals.length === 0) {
    out(USAGE);
    return values.help ? 0 : 2;
  }
  const { range, refused } = tempoRangeFlag(values['bpm-range']);
  if (refused !== undefined) {
    out(`${refused}\n${USAGE}`);
    return 2;
  }
  const engine = makeEngine(positionals.length);
  try {
    // Every file is submitted at once: the pool runs as many as it has threads and queues the rest.
    const pending = positionals.map(async (file) => {
      const outcome = await analyseFile(engine, file, range);
      if (values.json) out(JSON.stringify(outcome));
      return outcome;
    });
    const outcomes = await Promise.all(pending);
    if (!values.json) for (const line of formatTable(outcomes)) out(line);
    return outcomes.some((o) => 'error' in o) ? 1 : 0;
  } finally {
    await engine.close();
  }
}

if (require.main === module) {
  let status: number;
  void (async () => {
    try {
      const config = loadConfig();
      status = await runAnalyseCli(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`), (files) =>
        createEnginePool({
          workers: Math.min(config.ANALYSIS_WORKERS, files),
          timeoutMs: config.ANALYSIS_TIMEOUT_MS,
          windowSeconds: config.ANALYSIS_WINDOW_S,
          ...(config.MODELS_DIR ? { modelsDir: path.resolve(config.MODELS_DIR), modelsRequired: config.MODELS_REQUIRED, modelsPatches: config.MODELS_PATCHES, modelsRank: config.MODELS_RANK, modelsCacheDir: path.join(config.DATA_DIR, 'cache') } : {}),
          logger: { warn: (obj, msg) => process.stderr.write(`warning: ${msg} ${JSON.stringify(obj)}\n`) },
        }),
      );
    } catch (error) {
      process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
      status = 2;
    }
    process.exitCode = status;
  })();
}
