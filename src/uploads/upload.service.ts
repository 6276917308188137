import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { AnalysisOutcome, AnalysisService } from '../analysis/analysis.service';
import type { AnalysisStore } from '../analysis/store/store';
import { AUDIO_FORMATS } from '../core/audio-formats';
import { AppError, invalidArgument } from '../core/errors';
import type { Logger } from '../core/logger';
import { trackKey as computeTrackKey } from '../core/track-key';
import type { AnalysisEngine, AudioProbe, TrackMetadata } from '../core/types';
import type { MetadataCache } from '../search/metadata-cache';
import { nameFromPath } from '../sources/library/library.index';
import type { UploadQuota } from './upload.quota';
import { keepInLibrary } from './upload.keep';
import { type ReceivedFile, receiveToFile, sniffFile } from './upload.receiver';
import type { UploadSource } from './upload.source';

export interface UploadOptions {
  /** Where bodies are written while received and analysed (emptied at start). */
  dir: string;
  maxBytes: number;
  /**
   * Files older than this are all the start-up sweep removes (the folder is shared with other
   * nodes, whose uploads under way must stay); unset, the folder is emptied.
   */
  sweepOlderThanMs?: number;
  /** UPLOAD_KEEP: the library folder analysed uploads are copied into (`Artist - Track.ext`); unset, nothing is kept. */
  keepIn?: string;
}

/** What the uploader says of the file: form fields, and the name it had. */
export interface UploadHints {
  artist?: string;
  track?: string;
  filename?: string;
}

export interface UploadOutcome {
  trackKey: string;
  outcome: AnalysisOutcome;
}

/** How many content hashes are remembered to answer the same bytes under other names without analysing them again. */
const REMEMBERED_HASHES = 10_000;
const NAME_MAX = 300;

/**
 * Analyses the audio a user brings: the body is streamed to a temporary file (never held whole
 * in memory) up to the size limit, recognised by its bytes, named (the uploader's fields, else
 * the file's tags, else its file name) and analysed through AnalysisService like any track, so
 * webhooks, subscriptions and the store treat it as any other. The file is removed when its
 * analysis ends, however it ends.
 */
export class UploadService {
  /** Content hash → the key its analysis is stored under (bounded, oldest forgotten first). */
  private readonly analysedHashes = new Map<string, string>();
  /** Uploads under way per content hash: the file is removed when the last one's analysis ends. */
  private readonly holders = new Map<string, number>();

  constructor(
    private readonly analysis: AnalysisService,
    private readonly store: AnalysisStore,
    private readonly metadata: MetadataCache,
    private readonly engine: AnalysisEngine,
    private readonly source: UploadSource,
    private readonly options: UploadOptions,
    private readonly logger: Logger,
    private readonly quota?: UploadQuota,
  ) {}

  /**
   * Removes files left by a process that crashed mid-upload: all of them, or, in a folder shared
   * with other nodes, those older than `sweepOlderThanMs` (another node's upload being received
   * or analysed is younger, and stays).
   */
  async start(now: number = Date.now()): Promise<void> {
    await mkdir(this.options.dir, { recursive: true });
    const maxAge = this.options.sweepOlderThanMs;
    const left: string[] = [];
    for (const name of await readdir(this.options.dir)) {
      const file = path.join(this.options.dir, name);
      if (maxAge !== undefined) {
        const modified = await stat(file).then((s) => s.mtimeMs, () => undefined);
        if (modified === undefined || now - modified <= maxAge) continue;
      }
      left.push(file);
    }
    await Promise.all(left.map((file) => rm(file, { force: true, recursive: true })));
    if (left.length > 0) this.logger.info({ dir: this.options.dir, files: left.length }, 'uploads: removed files left by an earlier run');
  }

  get maxBytes(): number {
    return this.options.maxBytes;
  }

  /**
   * Refuses, before its body is read, an upload the requester's quota has no room for: no uploads
   * left today, or more bytes declared (less `allowance`, a form's own bytes) than are left.
   */
  async admit(requesterId: string | undefined, declaredBytes?: number, allowance = 0): Promise<void> {
    await this.quota?.check(requesterId, declaredBytes, allowance);
  }

  async upload(body: Readable, hints: UploadHints | Promise<UploadHints>, requesterId?: string): Promise<UploadOutcome> {
    await mkdir(this.options.dir, { recursive: true });
    const meter = await this.quota?.begin(requesterId);
    const received = await receiveToFile(body, this.options.dir, this.options.maxBytes, meter);
    return this.analyseReceived(received, hints, requesterId);
  }

  /**
   * As upload, for a file already received into the uploads folder (receiveToFile: a GraphQL
   * multipart request's file), which it takes over rather than copies: counted against the
   * requester's quota as it would have been while arriving, then named, stored and analysed; the
   * file is moved or removed whatever happens.
   */
  async uploadReceived(received: ReceivedFile, hints: UploadHints | Promise<UploadHints>, requesterId?: string): Promise<UploadOutcome> {
    try {
      const refused = (await this.quota?.begin(requesterId))?.(received.bytes);
      if (refused) throw refused;
    } catch (error) {
      await rm(received.path, { force: true });
      throw error;
    }
    return this.analyseReceived(received, hints, requesterId);
  }

  /** Upload's work once the bytes are in a file of the uploads folder (removed or moved at the end). */
  private async analyseReceived(received: ReceivedFile, hints: UploadHints | Promise<UploadHints>, requesterId?: string): Promise<UploadOutcome> {
    let held: string | undefined;
    try {
      if (received.bytes === 0) throw invalidArgument('the upload is empty: send the audio file as the body or as the form field "file"');
      const format = await sniffFile(received.path);
      if (format === undefined) {
        throw new AppError('UNSUPPORTED_MEDIA', 'the upload is not audio this server reads (recognised by its bytes; docs/FEATURES.md lists the formats)');
      }
      const file = this.source.fileOf(received.sha256);
      await rename(received.path, file);
      held = this.hold(received.sha256);
      const probe = await this.engine.probe({ path: file }).catch((): AudioProbe => ({}));
      const names = naming(await hints, probe);
      const key = computeTrackKey(names.artist, names.trackName);
      const track: TrackMetadata = {
        trackKey: key,
        artist: names.artist,
        trackName: names.trackName,
        source: 'upload',
        audio: { source: 'upload', locator: received.sha256 },
        ...(probe.durationMs !== undefined ? { durationMs: probe.durationMs } : {}),
      };
      const copied = await this.sameBytes(received.sha256, track);
      if (copied) return { trackKey: key, outcome: { status: 'done', analysis: copied } };
      await this.metadata.putAll([track]);
      const outcome = await this.analysis.analysisOf(track, requesterId);
      const kept = { artist: names.artist, trackName: names.trackName, extension: AUDIO_FORMATS[format].extensions[0], sha256: received.sha256 };
      if (outcome.status === 'done') {
        this.remember(received.sha256, outcome.analysis.trackKey);
        await this.keep(file, kept);
        return { trackKey: key, outcome };
      }
      // Analysed past the wait: the file is let go when the job ends, not with this request.
      const sha = received.sha256;
      held = undefined;
      // In a shared folder the file is kept younger than the other nodes' sweep while it waits.
      const sweepAge = this.options.sweepOlderThanMs;
      const fresh = sweepAge === undefined ? undefined : setInterval(() => void utimes(file, new Date(), new Date()).catch(() => undefined), sweepAge / 4);
      fresh?.unref();
      void this.analysis
        .analyseTrack(track)
        .then(
          async (done) => {
            this.remember(sha, done.trackKey);
            await this.keep(file, kept);
          },
          () => undefined,
        )
        .finally(() => {
          clearInterval(fresh);
          return this.release(sha);
        });
      return { trackKey: key, outcome };
    } finally {
      await rm(received.path, { force: true });
      if (held !== undefined) await this.release(held);
    }
  }

  /** UPLOAD_KEEP: the analysed file copied into the library folder; a failure to keep it is logged, the analysis stands. */
  private async keep(file: string, names: { artist: string; trackName: string; extension: string; sha256: string }): Promise<void> {
    if (this.options.keepIn === undefined) return;
    try {
      const name = await keepInLibrary(file, this.options.keepIn, names);
      if (name === undefined) this.logger.warn({ artist: names.artist, track: names.trackName }, 'uploads: not kept, every free name is taken by other audio');
      else this.logger.info({ file: name }, 'uploads: kept in the library folder');
    } catch (error) {
      this.logger.warn({ err: error }, 'uploads: the file could not be kept in the library folder');
    }
  }

  /** The same bytes analysed before under another name: that analysis, stored under this one too. */
  private async sameBytes(sha256: string, track: TrackMetadata) {
    const earlierKey = this.analysedHashes.get(sha256);
    if (earlierKey === undefined) return undefined;
    const earlier = await this.store.get(earlierKey);
    if (!earlier) return undefined;
    if (earlierKey === track.trackKey) return earlier;
    const copy = { ...earlier, trackKey: track.trackKey, artist: track.artist, trackName: track.trackName, analysedAt: new Date().toISOString() };
    const inserted = await this.store.save(copy);
    return inserted ? copy : ((await this.store.get(track.trackKey)) ?? copy);
  }

  private remember(sha256: string, trackKey: string): void {
    this.analysedHashes.delete(sha256);
    this.analysedHashes.set(sha256, trackKey);
    if (this.analysedHashes.size > REMEMBERED_HASHES) {
      const oldest = this.analysedHashes.keys().next();
      if (!oldest.done) this.analysedHashes.delete(oldest.value);
    }
  }

  private hold(sha256: string): string {
    this.holders.set(sha256, (this.holders.get(sha256) ?? 0) + 1);
    return sha256;
  }

  private async release(sha256: string): Promise<void> {
    const left = (this.holders.get(sha256) ?? 1) - 1;
    if (left > 0) {
      this.holders.set(sha256, left);
      return;
    }
    this.holders.delete(sha256);
    await rm(this.source.fileOf(sha256), { force: true });
  }
}

/** The uploader's fields, else the file's tags, else its file name ("Artist - Title.ext"), else "Unknown Artist" and "Upload". */
export function naming(hints: UploadHints, probe: AudioProbe): { artist: string; trackName: string } {
  const field = (value: string | undefined): string | undefined => {
    const v = value?.trim();
    if (v === undefined || v === '') return undefined;
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    if (v.length > NAME_MAX || /[\u0000-\u001f\u007f]/.test(v)) throw invalidArgument(`artist and track: at most ${NAME_MAX} characters, no control characters`);
    return v;
  };
  const fromName = hints.filename ? nameFromPath(path.basename(hints.filename)) : undefined;
  const artist = field(hints.artist) ?? probe.artist ?? fromName?.artist ?? 'Unknown Artist';
  const trackName = field(hints.track) ?? probe.title ?? fromName?.trackName ?? 'Upload';
  return { artist, trackName };
}
