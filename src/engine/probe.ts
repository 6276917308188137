import type { AudioProbe } from '../core/types';

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
   * The length the headers state exactly (FLAC STREAMINFO, an MP3 LAME/Xing tag), which a
   * truncated file no longer reaches. Undefined when the length is only estimated.
   */
  declaredSeconds?: number;
}

const positive = (x: number | undefined): number | undefined => (x !== undefined && Number.isFinite(x) && x > 0 ? x : undefined);

/** Reads the header facts; a file the tags parser cannot read yields none (the decoder decides). */
export async function headerFacts(bytes: Uint8Array): Promise<HeaderFacts> {
  const mm = await loadMusicMetadata();
  try {
    const { format } = await mm.parseBuffer(bytes, undefined, { duration: false, skipCovers: true });
    const estimatedSeconds = positive(format.duration);
    const exact = format.container === 'FLAC' || (format.container === 'MPEG' && format.tool !== undefined);
    return { estimatedSeconds, declaredSeconds: exact ? estimatedSeconds : undefined };
  } catch {
    return {};
  }
}

/** Tags, duration and cover art, without decoding audio. */
export async function probeAudio(input: { bytes: Uint8Array } | { path: string }): Promise<AudioProbe> {
  const mm = await loadMusicMetadata();
  const metadata =
    'bytes' in input ? await mm.parseBuffer(input.bytes, undefined, { duration: false }) : await mm.parseFile(input.path, { duration: false });
  const { common, format } = metadata;
  const cover = mm.selectCover(common.picture);
  const durationSeconds = positive(format.duration);
  const probe: AudioProbe = {};
  if (common.artist?.trim()) probe.artist = common.artist.trim();
  if (common.title?.trim()) probe.title = common.title.trim();
  if (common.album?.trim()) probe.album = common.album.trim();
  if (durationSeconds !== undefined) probe.durationMs = Math.round(durationSeconds * 1000);
  if (cover) probe.picture = { mime: cover.format, data: new Uint8Array(cover.data) };
  return probe;
}
