import { open } from 'node:fs/promises';
import type { AudioProbe } from '../core/types';
import { sniffFormat } from './sniff';

type MusicMetadata = typeof import('music-metadata');

/** music-metadata 11 is ESM-only: imported on first use inside the worker thread. */
async function loadMusicMetadata(): Promise<MusicMetadata> {
  return import('music-metadata');
}

/** What the engine needs from a file's headers before decoding it. */
export interface HeaderFacts {
  /** The length the headers imply (exact or estimated from bitrate and size); plans the decode. */
  estimatedSeconds?: number;
  /**
   * The length the headers state exactly (FLAC STREAMINFO, an MP3 LAME/Xing tag, AIFF's COMM
   * chunk, WavPack's block header, an MP4 movie header, Matroska's segment info, ASF's file
   * properties), which a truncated file no longer reaches.
   * Undefined when the length is only estimated.
   */
  declaredSeconds?: number;
}

/**
 * Containers whose headers state the length exactly, as music-metadata names them (MP4's carry
 * its brands, "M4A/isom/iso2"; Matroska's and ASF's their kind, "EBML/webm", "ASF/audio").
 */
const EXACT_LENGTH = /^(FLAC|AIFF|AIFF-C|WavPack)$|^(M4A|mp4|isom|iso\d|mp41|mp42|EBML|ASF)\//;

const positive = (x: number | undefined): number | undefined => (x !== undefined && Number.isFinite(x) && x > 0 ? x : undefined);

/** Reads the header facts; a file the tags parser cannot read yields none (the decoder decides). */
export async function headerFacts(bytes: Uint8Array): Promise<HeaderFacts> {
  const mm = await loadMusicMetadata();
  try {
    const { format } = await mm.parseBuffer(bytes, undefined, { duration: false, skipCovers: true });
    const estimatedSeconds = positive(format.duration);
    const exact = EXACT_LENGTH.test(format.container ?? '') || (format.container === 'MPEG' && format.tool !== undefined);
    return { estimatedSeconds, declaredSeconds: exact ? estimatedSeconds : undefined };
  } catch {
    return {};
  }
}

/** Enough of a file's start to recognise its container. */
const HEAD_BYTES = 64 * 1024;

async function readHead(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(new Uint8Array(HEAD_BYTES), 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Tags, duration and cover art, without decoding audio. A container the engine decodes but the
 * tags parser does not read (TTA, CAF, raw AAC without ID3) has no tags: an empty probe.
 */
export async function probeAudio(input: { bytes: Uint8Array } | { path: string }): Promise<AudioProbe> {
  const mm = await loadMusicMetadata();
  let metadata: Awaited<ReturnType<MusicMetadata['parseBuffer']>>;
  try {
    metadata =
      'bytes' in input ? await mm.parseBuffer(input.bytes, undefined, { duration: false }) : await mm.parseFile(input.path, { duration: false });
  } catch (error) {
    const name = (error as { name?: unknown } | undefined)?.name;
    if (name !== 'CouldNotDetermineFileTypeError' && name !== 'UnsupportedFileTypeError') throw error;
    if (sniffFormat('bytes' in input ? input.bytes : await readHead(input.path)) === undefined) throw error;
    return {};
  }
  const { common, format } = metadata;
  const cover = mm.selectCover(common.picture);
  const durationSeconds = positive(format.duration);
  const probe: AudioProbe = {};
  if (common.artist?.trim()) probe.artist = common.artist.trim();
  if (common.title?.trim()) probe.title = common.title.trim();
  if (common.album?.trim()) probe.album = common.album.trim();
  if (durationSeconds !== undefined) probe.durationMs = Math.round(durationSeconds * 1000);
  if (positive(format.sampleRate) !== undefined) probe.sampleRate = format.sampleRate;
  if (positive(format.numberOfChannels) !== undefined) probe.channels = format.numberOfChannels;
  if (cover) probe.picture = { mime: cover.format, data: new Uint8Array(cover.data) };
  return probe;
}
