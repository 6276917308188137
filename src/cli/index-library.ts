import '../entry';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import { MAX_BATCH_KEYS, type AnalysisService } from '../analysis/analysis.service';
import { parseOlderThan, type ReanalyseProgress, type ReanalyseRequest, type ReanalyseService } from '../analysis/reanalyse.service';
import { ConfigError, loadConfig } from '../config';
import { createContainer, type ContainerOverrides } from '../container';
import { ANALYSIS_FAILED_MESSAGE, shownError } from '../core/errors';
import { createLogger } from '../core/logger';
import { DEFAULT_MIN_KEY_CONFIDENCE, KEY_NOTATIONS, type KeyNotation } from '../core/music';
import { tempoRangeFlag } from '../core/tempo-range';
import type { StoredAnalysis, TrackMetadata } from '../core/types';
import { ServerIndex, type ServerIndexPlan } from '../analysis/server-index.service';
import { LibrarySource } from '../sources/library/library.source';
import { TAG_WRITE_EXTENSIONS, tagValuesFor, type TagChange, type TagOptions } from '../sources/library/library.tags';

const USAGE = `usage: npm run index -- [--write-tags [--min-key-confidence <0-1>] [--bpm-range <min>-<max>] [--key-notation <name>] [--dry-run]] [dir]
       npm run index -- --source subsonic
       npm run index -- --reanalyse [--older-than <engine>] [--dry-run]
  Analyses every audio file of a folder (default LIBRARY_DIR) into the analysis store, in
  parallel on the service's analysis workers, with a progress bar. Resumable: tracks already
  stored are skipped, and unchanged files (same size and mtime) are not even re-read for tags.
  --source subsonic  analyses every song of the Subsonic server (SUBSONIC_URL, SUBSONIC_USER,
                SUBSONIC_PASSWORD) instead, read through its API. Resumable: a song already
                analysed and unchanged on the server (its id, when it was added, its size) is
                skipped; a song whose file changed is analysed again. --write-tags does not
                apply (the files are the server's).
  --write-tags  then writes each file's stored analysis into its own tags: BPM, initial key
                (standard and Open Key notation) and moods (ID3v2, Vorbis comments, MP4 atoms;
                see docs/TAGS.md). Files already carrying these values are not rewritten.
  --min-key-confidence  with --write-tags: the key is written only where the analysis's key
                confidence is at least this (default ${DEFAULT_MIN_KEY_CONFIDENCE}; 0 writes every key); the
                other fields are written all the same, and a key already in the file is kept.
  --bpm-range   with --write-tags: the BPM written is the tempo counted within this range, as
                70-140 (a crate of drum and bass: 160-180): the most probable beat grid at its
                octave inside it (docs/TAGS.md). The stored analyses are not changed.
  --key-notation  with --write-tags: what the initial-key field (TKEY, INITIALKEY) holds:
                standard (Am, F#; the default, as ID3 defines TKEY), open-key (1m, 7d: Traktor)
                or camelot (8A, 2B: Mixed In Key, rekordbox); INITIALKEY_OPENKEY stays Open Key.
  --dry-run     with --write-tags: lists what would change (old -> new), writes nothing.
  --reanalyse   analyses again every stored analysis an older engine version (or another
                method) made, from the audio source it came from, and replaces it; every
                server drops its cached copy. Resumable: what is current is skipped. A track
                whose audio is gone keeps its analysis and is listed.
  --older-than  with --reanalyse: only analyses of an engine version below this one (11 or
                trackgraph-engine/11).
  --dry-run     with --reanalyse: counts what would be redone, per engine, analyses nothing.
  Environment: as for the server (DATA_DIR, DATABASE_URL, ANALYSIS_WORKERS, QUEUE_URL, …).
  Exit status 1 if any file failed (analysis or tags).`;


/** Keys asked of the store per batch: the service's batch bound. */
const STORE_BATCH = MAX_BATCH_KEYS;

export interface IndexCliIo {
  /** Summary lines (stdout). */
  out: (line: string) => void;
  /** Where the progress bar is drawn (stderr). */
  progress: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Tests replace the engine and logger; the rest is the service's own wiring. */
  overrides?: ContainerOverrides;
}

export interface IndexSummary {
  total: number;
  stored: number;
  analysed: number;
  failed: { file: string; code: string; message: string }[];
}

/**
 * `npm run index -- [dir]`: the library source indexes the folder (tags probed only for new or
 * changed files), tracks already in the store are skipped, the rest are analysed through the
 * analysis service, on the same jobs the API uses (in-process worker pool, or BullMQ workers
 * with QUEUE_URL).
 */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  'write-tags': { type: 'boolean' },
  'min-key-confidence': { type: 'string' },
  'bpm-range': { type: 'string' },
  'key-notation': { type: 'string' },
  'dry-run': { type: 'boolean' },
  reanalyse: { type: 'boolean' },
  'older-than': { type: 'string' },
  source: { type: 'string' },
} as const;

/** What `--source` may name: the folder (the default), or the music server. */
const INDEX_SOURCES = ['library', 'subsonic'] as const;

export async function runIndexCli(argv: string[], io: IndexCliIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // An unknown option, or one without its value: said, with the usage, never a stack trace.
    io.out(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const reanalysing = values.reanalyse === true;
  const source = values.source ?? 'library';
  if (!(INDEX_SOURCES as readonly string[]).includes(source)) {
    io.out(`--source must be ${INDEX_SOURCES.join(' or ')}, not "${source}"\n${USAGE}`);
    return 2;
  }
  if (source === 'subsonic') {
    if (values['write-tags']) {
      io.out('--write-tags does not apply to --source subsonic: the files are the Subsonic server\'s, and trackgraph does not write into them; nothing was done');
      return 2;
    }
    if (positionals.length > 0 || reanalysing || values['dry-run'] || values['older-than'] !== undefined || values['min-key-confidence'] !== undefined || values['bpm-range'] !== undefined || values['key-notation'] !== undefined || values.help) {
      io.out(USAGE);
      return values.help ? 0 : 2;
    }
    return serverIndexCli(io);
  }
  const misused =
    positionals.length > 1 ||
    (values['dry-run'] && !values['write-tags'] && !reanalysing) ||
    (reanalysing && (values['write-tags'] || positionals.length > 0)) ||
    (values['older-than'] !== undefined && !reanalysing) ||
    (values['min-key-confidence'] !== undefined && !values['write-tags']) ||
    (values['bpm-range'] !== undefined && !values['write-tags']) ||
    (values['key-notation'] !== undefined && !values['write-tags']);
  if (values.help || misused) {
    io.out(USAGE);
    return values.help ? 0 : 2;
  }
  const minKeyConfidence = values['min-key-confidence'] === undefined ? DEFAULT_MIN_KEY_CONFIDENCE : Number(values['min-key-confidence']);
  if (!(minKeyConfidence >= 0 && minKeyConfidence <= 1) || values['min-key-confidence']?.trim() === '') {
    io.out(`--min-key-confidence must be a number from 0 to 1, not "${values['min-key-confidence']}"\n${USAGE}`);
    return 2;
  }
  const { range, refused } = tempoRangeFlag(values['bpm-range']);
  if (refused !== undefined) {
    io.out(`${refused}\n${USAGE}`);
    return 2;
  }
  const keyNotation = values['key-notation'] ?? 'standard';
  if (!Object.hasOwn(KEY_NOTATIONS, keyNotation)) {
    io.out(`--key-notation must be ${Object.keys(KEY_NOTATIONS).join(', ')}, not "${keyNotation}"\n${USAGE}`);
    return 2;
  }
  if (reanalysing) {
    let olderThan: number | undefined;
    try {
      olderThan = values['older-than'] === undefined ? undefined : parseOlderThan(values['older-than']);
    } catch (error) {
      io.out(`${shownError(error).message}\n${USAGE}`);
      return 2;
    }
    return reanalyseCli({ ...(olderThan !== undefined ? { olderThan } : {}), dryRun: values['dry-run'] === true }, io);
  }
  const dir = positionals[0];
  const config = loadConfig({
    ...io.env,
    ...(dir ? { LIBRARY_DIR: dir } : {}),
    // Only the folder's files are indexed: no remote source is asked anything.
    SOURCES: 'library',
    LIBRARY_WATCH: 'false',
    // The command writes tags itself, and only with --write-tags.
    LIBRARY_WRITE_TAGS: 'false',
  });
  const logger = io.overrides?.logger ?? createLogger({ level: io.env.LOG_LEVEL ?? 'warn', format: config.LOG_FORMAT, fd: 2 });
  const container = await createContainer(config, { ...io.overrides, logger });
  try {
    await container.start();
    const library = container.registry.catalogSource('library');
    if (!library) throw new Error('the library source is not enabled');
    const summary = await indexTracks(library.tracks(), container.analysis, io);
    io.out(
      `${config.libraryDir}: ${summary.total} tracks, ${summary.stored} already stored, ${summary.analysed} analysed, ${summary.failed.length} failed`,
    );
    for (const f of summary.failed) io.out(`  failed: ${f.file}: ${f.code}: ${f.message}`);
    let tagsFailed = 0;
    if (values['write-tags']) {
      if (!(library instanceof LibrarySource)) throw new Error('the library source cannot write tags');
      tagsFailed = await writeTagsBack(library, container.analysis, { dryRun: values['dry-run'] === true, minKeyConfidence, keyNotation: keyNotation as KeyNotation, ...(range ? { range } : {}) }, io);
    }
    return summary.failed.length > 0 || tagsFailed > 0 ? 1 : 0;
  } finally {
    await container.close();
  }
}

/**
 * `--reanalyse`: the server's own sources (as SOURCES configures them: the library's files, the
 * Deezer previews, …) give each stored track's audio again; the re-analysis service redoes and
 * replaces, with a progress bar, then a summary and one line per track left as it was.
 */
async function reanalyseCli(request: ReanalyseRequest, io: IndexCliIo): Promise<number> {
  const config = loadConfig({ ...io.env, LIBRARY_WATCH: 'false', LIBRARY_WRITE_TAGS: 'false' });
  const logger = io.overrides?.logger ?? createLogger({ level: io.env.LOG_LEVEL ?? 'warn', format: config.LOG_FORMAT, fd: 2 });
  const container = await createContainer(config, { ...io.overrides, logger });
  try {
    await container.start();
    const summary = await reanalyseWithProgress(container.reanalyse, request, io);
    const engines = Object.entries(summary.byEngine)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([engine, n]) => `${n} by ${engine}`)
      .join(', ');
    const current = `current engine ${container.reanalyse.current.engine}`;
    if (summary.dryRun) {
      io.out(`reanalyse (dry run, nothing analysed): ${summary.total} to redo${engines ? ` (${engines})` : ''}; ${current}`);
      return 0;
    }
    io.out(
      `reanalyse: ${summary.total} to redo${engines ? ` (${engines})` : ''}, ${summary.replaced} replaced, ${summary.unavailable.length} audio unavailable (kept), ${summary.failed.length} failed (kept); ${current}`,
    );
    for (const u of summary.unavailable) io.out(`  unavailable: ${u.trackKey} ${u.artist} - ${u.trackName}: ${u.code}: ${u.message}`);
    for (const f of summary.failed) io.out(`  failed: ${f.trackKey} ${f.artist} - ${f.trackName}: ${f.code}: ${f.message}`);
    return summary.failed.length > 0 || summary.unavailable.length > 0 ? 1 : 0;
  } finally {
    await container.close();
  }
}

/** Runs a re-analysis with a progress bar on io.progress (none for a dry run). */
export async function reanalyseWithProgress(service: Pick<ReanalyseService, 'run'>, request: ReanalyseRequest, io: Pick<IndexCliIo, 'progress'>): Promise<ReanalyseProgress> {
  const started = Date.now();
  const bar = new SingleBar({
    stream: io.progress,
    format: 'reanalysing |{bar}| {value}/{total} tracks | {rate} tracks/s | ETA {eta_formatted} | {replaced} replaced, {kept} kept',
    noTTYOutput: true,
    notTTYSchedule: 5000,
    hideCursor: true,
    etaBuffer: 20,
  });
  let shown = false;
  const payload = (p: ReanalyseProgress) => ({
    rate: (p.done / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(2),
    replaced: p.replaced,
    kept: p.unavailable.length + p.failed.length,
  });
  const summary = await service.run(request, (p) => {
    if (p.dryRun || p.total === 0) return;
    if (!shown) {
      bar.start(p.total, p.done, payload(p));
      shown = true;
    } else bar.update(p.done, payload(p));
  });
  if (shown) {
    bar.update(summary.done, payload(summary));
    bar.stop();
  }
  return summary;
}

async function indexTracks(
  tracks: TrackMetadata[],
  analysis: Pick<AnalysisService, 'storedMany' | 'analyseTrack'>,
  io: IndexCliIo,
): Promise<IndexSummary> {
  const todo: TrackMetadata[] = [];
  for (let i = 0; i < tracks.length; i += STORE_BATCH) {
    const batch = tracks.slice(i, i + STORE_BATCH);
    const stored = await analysis.storedMany(batch.map((t) => t.trackKey), { segments: false });
    todo.push(...batch.filter((_, j) => stored[j] === null));
  }
  const summary: IndexSummary = { total: tracks.length, stored: tracks.length - todo.length, analysed: 0, failed: [] };
  const outcome = await withProgress(todo, 'files', io, async (track) => {
    await analysis.analyseTrack(track);
  }, (track) => track.audio?.locator ?? track.trackKey);
  summary.analysed = outcome.done;
  summary.failed = outcome.failed;
  return summary;
}

/**
 * Runs `work` on every item at once (the jobs run as many as there are workers and queue the
 * rest) with a progress bar on io.progress; a failure is kept with the item's name, never thrown.
 */
async function withProgress<T>(
  items: readonly T[],
  unit: string,
  io: Pick<IndexCliIo, 'progress'>,
  work: (item: T) => Promise<void>,
  nameOf: (item: T) => string,
): Promise<{ done: number; failed: IndexSummary['failed'] }> {
  const outcome = { done: 0, failed: [] as IndexSummary['failed'] };
  if (items.length === 0) return outcome;
  const started = Date.now();
  const bar = new SingleBar({
    stream: io.progress,
    format: `indexing |{bar}| {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted} | {failedCount} failed`,
    // A piped stderr (CI logs) still gets a line now and then, and the final one.
    noTTYOutput: true,
    notTTYSchedule: 5000,
    hideCursor: true,
    etaBuffer: 20,
  });
  const payload = () => ({
    rate: ((outcome.done + outcome.failed.length) / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(2),
    failedCount: outcome.failed.length,
  });
  bar.start(items.length, 0, payload());
  await Promise.all(
    items.map(async (item) => {
      try {
        await work(item);
        outcome.done++;
      } catch (error) {
        outcome.failed.push({ file: nameOf(item), ...shownError(error, ANALYSIS_FAILED_MESSAGE) });
      }
      bar.increment(1, payload());
    }),
  );
  bar.update(items.length, payload());
  bar.stop();
  outcome.failed.sort((a, b) => (a.file < b.file ? -1 : 1));
  return outcome;
}

/**
 * `--write-tags`: each library file whose track has a stored analysis gets it in its tags (the
 * key only where its confidence reaches `minKeyConfidence`; the BPM counted within `range` when
 * given); the rest are skipped and said so.
 * One line per file that changes, is skipped or fails, then the summary and how many keys were
 * left out. Returns how many failed.
 */
async function writeTagsBack(
  library: LibrarySource,
  analysis: Pick<AnalysisService, 'storedMany'>,
  options: TagOptions & { dryRun: boolean },
  io: Pick<IndexCliIo, 'out'>,
): Promise<number> {
  const files = library.files();
  const keys = [...new Set(files.map((f) => f.trackKey))];
  const stored = new Map<string, StoredAnalysis>();
  for (let i = 0; i < keys.length; i += STORE_BATCH) {
    const batch = keys.slice(i, i + STORE_BATCH);
    (await analysis.storedMany(batch)).forEach((a, j) => a && stored.set(batch[j]!, a));
  }
  const counts = { written: 0, unchanged: 0, skipped: 0, failed: 0, keysLeftOut: 0 };
  const lines: string[] = [];
  const changeList = (changes: TagChange[]): string => changes.map((c) => `${c.field} ${c.from ?? '(none)'} → ${c.to}`).join(', ');
  for (const file of files) {
    const found = stored.get(file.trackKey);
    if (!found) {
      counts.skipped++;
      lines.push(`  skipped: ${file.relPath}: no stored analysis`);
      continue;
    }
    const { values, keyLeftOut } = tagValuesFor(found.features, options);
    const outcome = await library.writeTags(file.relPath, values, options);
    if (keyLeftOut && (outcome.status === 'written' || outcome.status === 'unchanged')) counts.keysLeftOut++;
    if (outcome.status === 'unsupported') {
      counts.skipped++;
      lines.push(`  skipped: ${file.relPath}: tags are not written to ${path.extname(file.relPath) || 'files without an ending'} (${TAG_WRITE_EXTENSIONS.join(' ')} are)`);
    } else if (outcome.status === 'failed') {
      counts.failed++;
      lines.push(`  failed: ${file.relPath}: ${outcome.reason} (left untouched)`);
    } else if (outcome.status === 'unchanged') {
      counts.unchanged++;
    } else {
      counts.written++;
      lines.push(`  ${options.dryRun ? 'would write' : 'written'}: ${file.relPath}: ${changeList(outcome.changes)}`);
    }
  }
  io.out(
    options.dryRun
      ? `tags (dry run, nothing written): ${counts.written} to write, ${counts.unchanged} unchanged, ${counts.skipped} skipped, ${counts.failed} failed`
      : `tags: ${counts.written} written, ${counts.unchanged} unchanged, ${counts.skipped} skipped, ${counts.failed} failed`,
  );
  io.out(`keys left out (key confidence under ${options.minKeyConfidence}, --min-key-confidence): ${counts.keysLeftOut}`);
  for (const line of lines) io.out(line);
  return counts.failed;
}

/**
 * `--source subsonic`: the music server's songs, listed through its API, are planned by the
 * server index (already analysed and unchanged: skipped; changed on the server: analysed again;
 * the rest: analysed), then analysed with a progress bar, each song's id and version kept as it
 * succeeds. A server that cannot be reached or refuses the credentials is said, exit status 1.
 */
async function serverIndexCli(io: IndexCliIo): Promise<number> {
  const config = loadConfig({
    ...io.env,
    // Only the server's songs are indexed: no other source is asked anything.
    SOURCES: 'subsonic',
    LIBRARY_WATCH: 'false',
    // The command writes tags itself, and only with --write-tags.
    LIBRARY_WRITE_TAGS: 'false',
  });
  const logger = io.overrides?.logger ?? createLogger({ level: io.env.LOG_LEVEL ?? 'warn', format: config.LOG_FORMAT, fd: 2 });
  const container = await createContainer(config, { ...io.overrides, logger });
  try {
    await container.start();
    const server = container.registry.musicServer('subsonic');
    if (!server) throw new Error('the subsonic source is not enabled');
    const where = `subsonic ${config.SUBSONIC_URL ?? ''}`.trim();
    const index = new ServerIndex(server, container.sourceTracks, container.analysis, container.reanalyse);
    let plan: ServerIndexPlan;
    try {
      await server.connect({ signal: AbortSignal.timeout(config.SOURCE_TIMEOUT_MS * 2) });
      plan = await index.plan({ signal: AbortSignal.timeout(LISTING_TIMEOUT_MS) });
    } catch (error) {
      io.out(`${where}: ${shownError(error, 'the server could not be read').message}`);
      return 1;
    }
    const work = [...plan.todo.map((song) => ({ song, changed: false })), ...plan.changed.map((song) => ({ song, changed: true }))];
    const outcome = await withProgress(work, 'songs', io, (item) => (item.changed ? index.redo(item.song) : index.analyse(item.song)), ({ song }) => `${song.track.artist} - ${song.track.trackName} (${song.track.sourceId ?? ''})`);
    io.out(
      `${where}: ${plan.total} songs, ${plan.skipped} already stored, ${index.analysed} analysed, ${index.reanalysed} re-analysed (changed on the server), ${outcome.failed.length} failed`,
    );
    for (const f of outcome.failed) io.out(`  failed: ${f.file}: ${f.code}: ${f.message}`);
    return outcome.failed.length > 0 ? 1 : 0;
  } finally {
    await container.close();
  }
}

/** Longest the listing of every song of the server may take, ms (a large library is many pages). */
const LISTING_TIMEOUT_MS = 30 * 60_000;

if (require.main === module) {
  void (async () => {
    let status: number;
    try {
      status = await runIndexCli(process.argv.slice(2), {
        out: (line) => process.stdout.write(`${line}\n`),
        progress: process.stderr,
        env: process.env,
      });
    } catch (error) {
      process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
      status = 2;
    }
    process.exitCode = status;
  })();
}
