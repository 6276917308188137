import { AUDIO_FORMATS, AUDIO_FORMAT_NAMES, type AudioFormat } from '../core/audio-formats';
import { AppError } from '../core/errors';
import { headerFacts } from './probe';
import { sniffFormat } from './sniff';
import { type WholeTrack, WholeTrackReader, wholeTrackOf } from './track.whole';
import { WHOLE_CLIP_MAX_SECONDS, WindowCollector, chooseWindow, keepRangeFor, toAnalysisRate } from './window';

export type { AudioFormat } from '../core/audio-formats';
export { sniffFormat } from './sniff';

/** Shortest audio the measurements can say anything about. */
export const MIN_ANALYSABLE_SECONDS = 1;

/** Bytes handed to the decoder at a time; bounds the PCM that exists beside the kept window. */
const CHUNK_BYTES = 256 * 1024;

/** A decoded length below this share of the length the headers declare means a cut-off file. */
const TRUNCATION_RATIO = 0.9;

/**
 * The longest length a header is believed on when the file holds less. Up to it, a shortfall
 * means a cut-off file (AUDIO_UNDECODABLE). Past it the length is taken as a placeholder (what
 * streaming writers leave before they know the length) or a lie: as for a streamed WAV, the
 * length is unknown and what the file holds is decoded, its window analysed. The bytes decoded
 * are the file's own either way, so a claim of hours costs nothing more than the file.
 */
export const LONGEST_BELIEVED_SECONDS = 3600;

/** The analysis window of a file, mono at 44.1 kHz, and facts about the whole file. */
export interface DecodedAudio {
  format: AudioFormat;
  /** Mono samples of the analysis window at 44.1 kHz. */
  samples: Float32Array;
  /** Where the window starts in the file, seconds. */
  offsetSeconds: number;
  /** Length of the whole file, seconds (from the decoded sample count). */
  durationSeconds: number;
  sourceSampleRate: number;
  channels: number;
  /** Integrated loudness of the window, LUFS (all channels, BS.1770). */
  loudness: number;
  /** K-weighted power of each 100 ms of the window, for per-section loudness. */
  subBlockPowers: Float64Array;
  /** What the key and the tempo read of the whole file, when the window is only part of it (track.whole.ts). */
  wholeTrack?: WholeTrack;
}

const undecodable = (message: string, cause?: unknown): AppError =>
  new AppError('AUDIO_UNDECODABLE', message, cause === undefined ? undefined : { cause });

/**
 * The length a WAV (RIFF) or AIFF (FORM) header promises, in bytes, when it says more than the
 * file has: these PCM decoders silently decode what is there, so truncation is seen here.
 */
function declaredShortfall(bytes: Uint8Array, format: AudioFormat): number | undefined {
  if ((format !== 'wav' && format !== 'aiff') || bytes.length < 12) return undefined;
  const size = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, format === 'wav');
  if (size === 0xffffffff || size === 0) return undefined; // streamed: size unknown
  return size + 8 > bytes.length ? size + 8 : undefined;
}

/** The length a WAV's RIFF header claims, seconds (its size over the byte rate of its fmt chunk). */
function wavClaimedSeconds(bytes: Uint8Array): number | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = view.getUint32(4, true);
  for (let pos = 12; pos + 16 <= bytes.length; ) {
    const chunkSize = view.getUint32(pos + 4, true);
    if (String.fromCharCode(...bytes.subarray(pos, pos + 4)) === 'fmt ') {
      const byteRate = view.getUint32(pos + 16, true);
      return byteRate > 0 ? size / byteRate : undefined;
    }
    pos += 8 + chunkSize + (chunkSize & 1);
  }
  return undefined;
}

/** WAVE format tags of the ADPCM codecs the WAV decoder reads: IMA (0x11) and Microsoft (2). */
const IMA_ADPCM = 0x11;
const MS_ADPCM = 2;

/**
 * What makes a WAV's fmt chunk one the decoder cannot read in bounded time: no channels, or an
 * ADPCM block too small for its own header or claiming more samples than its bytes hold (the
 * decoder would loop on such a block without end; a header byte flipped is enough to make one).
 */
function wavFormatProblem(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let pos = 12; pos + 24 <= bytes.length; ) {
    const size = view.getUint32(pos + 4, true);
    if (String.fromCharCode(...bytes.subarray(pos, pos + 4)) === 'fmt ') {
      let tag = view.getUint16(pos + 8, true);
      const channels = view.getUint16(pos + 10, true);
      const blockAlign = view.getUint16(pos + 20, true);
      if (tag === 0xfffe && size >= 40 && pos + 34 <= bytes.length) tag = view.getUint16(pos + 32, true);
      if (channels === 0) return 'its format names no channels';
      if (tag !== IMA_ADPCM && tag !== MS_ADPCM) return undefined;
      const header = (tag === IMA_ADPCM ? 4 : 7) * channels;
      if (blockAlign <= header) return `an ADPCM block of ${blockAlign} bytes cannot hold its ${header}-byte header`;
      const most = tag === IMA_ADPCM ? 1 + (blockAlign / channels - 4) * 2 : 2 + ((blockAlign - 7 * channels) * 2) / channels;
      const cbSize = size >= 20 ? view.getUint16(pos + 24, true) : 0;
      const stated = cbSize >= 2 && pos + 28 <= bytes.length ? view.getUint16(pos + 26, true) : 0;
      if (stated > most) return `an ADPCM block of ${blockAlign} bytes cannot hold ${stated} samples`;
      return undefined;
    }
    pos += 8 + size + (size & 1);
  }
  return undefined;
}

/**
 * Where an AIFF file's sound data ends. Chunks may follow it (an ID3 tag, markers), and the AIFF
 * decoder, fed in chunks, would decode their bytes as samples: it is handed the file up to here.
 */
function aiffSoundEnd(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let pos = 12; pos + 8 <= bytes.length; ) {
    const size = view.getUint32(pos + 4, false);
    if (String.fromCharCode(...bytes.subarray(pos, pos + 4)) === 'SSND') return Math.min(bytes.length, pos + 8 + size);
    pos += 8 + size + (size & 1);
  }
  return bytes.length;
}

/** A decoder's own words when it refuses a codec inside a container it reads (ALAC in CAF, TrueHD in MP4, …). */
function unsupportedCodec(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : undefined;
  if (!message || !/unsupported|not supported|no decoder|unknown codec/i.test(message)) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  return message.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);
}

interface DecodeModule {
  default: Record<AudioFormat, () => Promise<StreamDecoder>>;
}
interface StreamDecoder {
  (chunk?: Uint8Array): Promise<{ channelData: Float32Array[]; sampleRate: number }>;
  free(): void;
}

async function loadDecoders(): Promise<DecodeModule['default']> {
  // audio-decode is ESM-only: only a real worker thread or Node itself can import it.
  const mod = (await import('audio-decode')) as unknown as DecodeModule;
  return mod.default;
}

async function decodeInto(bytes: Uint8Array, format: AudioFormat, collector: WindowCollector, track?: WholeTrackReader): Promise<void> {
  const decoders = await loadDecoders();
  const decoder = await decoders[format]();
  let finished = false;
  try {
    for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
      const out = await decoder(bytes.subarray(offset, Math.min(bytes.length, offset + CHUNK_BYTES)));
      collector.push(out.channelData, out.sampleRate);
      // A collector that keeps every sample holds the whole file for the key already.
      if (!collector.keepsEverything) track?.push(out.channelData, out.sampleRate);
    }
    finished = true;
    const tail = await decoder();
    collector.push(tail.channelData, tail.sampleRate);
    if (!collector.keepsEverything) track?.push(tail.channelData, tail.sampleRate);
  } catch (error) {
    if (!finished) decoder.free();
    const name = AUDIO_FORMATS[format].name;
    const unsupported = unsupportedCodec(error);
    if (unsupported !== undefined && collector.totalSamples === 0) throw undecodable(`unsupported ${name} content: ${unsupported}`, error);
    const at = collector.sampleRate > 0 ? ` after ${(collector.totalSamples / collector.sampleRate).toFixed(1)} s` : '';
    throw undecodable(`corrupt ${name} data: the decoder failed${at}`, error);
  }
}

/**
 * Decodes the analysis window of an audio file: streams the file through the decoder, keeps
 * only the samples around the window its headers imply (mono), measures their loudness, cuts
 * the exact window once the true length is known and resamples only that to 44.1 kHz. Every
 * sample also passes, in 30 s blocks, through the key's chroma and the level choice
 * (track.whole.ts): a file longer than its window gets its key and its tempo's level from all of it.
 *
 * `estimatedSeconds` (from the tags parser) only decides what to keep; when it was wrong the
 * file is decoded a second time keeping the exact window. `declaredSeconds`, when the headers
 * state a length exactly (probe.ts, HeaderFacts), detects truncated files.
 */
export async function decodeWindow(
  bytes: Uint8Array,
  options: { windowSeconds: number; estimatedSeconds?: number; declaredSeconds?: number },
): Promise<DecodedAudio> {
  if (bytes.length === 0) throw undecodable('empty file');
  const format = sniffFormat(bytes);
  if (!format) throw undecodable(`unknown or unsupported format (expected ${AUDIO_FORMAT_NAMES})`);
  const name = AUDIO_FORMATS[format].name;
  // The tags parser clips a WAV's length to the file: its header's claim is read here.
  const claimed = format === 'wav' ? wavClaimedSeconds(bytes) : options.declaredSeconds;
  const believed = claimed === undefined || claimed <= LONGEST_BELIEVED_SECONDS;
  if (!believed) options = { windowSeconds: options.windowSeconds };
  const declaredBytes = believed ? declaredShortfall(bytes, format) : undefined;
  if (declaredBytes !== undefined) {
    throw undecodable(`truncated ${name}: the header declares ${declaredBytes} bytes, the file has ${bytes.length}`);
  }
  const formatProblem = format === 'wav' ? wavFormatProblem(bytes) : undefined;
  if (formatProblem !== undefined) throw undecodable(`corrupt WAV header: ${formatProblem}`);
  const audio = format === 'aiff' ? bytes.subarray(0, aiffSoundEnd(bytes)) : bytes;

  const estimated = options.estimatedSeconds;
  // Room for the estimated length and a little more, so that the kept samples are not copied over.
  const expected = (rate: number): number | undefined => (estimated === undefined ? undefined : (estimated * 1.05 + 1) * rate);
  let collector = new WindowCollector((rate) => keepRangeFor(estimated, rate, options.windowSeconds), expected);
  const track = new WholeTrackReader(Math.max(WHOLE_CLIP_MAX_SECONDS, options.windowSeconds));
  await decodeInto(audio, format, collector, track);

  const total = collector.totalSamples;
  const rate = collector.sampleRate;
  if (total === 0 || rate === 0) throw undecodable(`no audio could be decoded from the ${name} data (corrupt or truncated)`);
  const seconds = total / rate;
  if (options.declaredSeconds !== undefined && seconds < options.declaredSeconds * TRUNCATION_RATIO - 0.5) {
    throw undecodable(
      `truncated ${name}: decoded ${seconds.toFixed(1)} s of the ${options.declaredSeconds.toFixed(1)} s its header declares`,
    );
  }
  if (seconds < MIN_ANALYSABLE_SECONDS) {
    throw undecodable(`too short to analyse: ${seconds.toFixed(2)} s of audio (at least ${MIN_ANALYSABLE_SECONDS} s needed)`);
  }

  const window = chooseWindow(total, rate, options.windowSeconds);
  // The key over the whole file when the window is only part of it: streamed in blocks while
  // decoding, or, where the collector kept every sample (the length unknown or within the window
  // by the headers), read from its samples.
  const partial = window.start > 0 || window.end < total;
  const wholeTrack = !partial ? undefined : collector.keepsEverything ? wholeTrackOf(collector.keptMono(), rate) : track.finish();
  if (!collector.covers(window)) {
    collector = new WindowCollector(window);
    await decodeInto(audio, format, collector);
  }
  const channels = collector.channels;
  const { mono, loudness, subBlockPowers } = collector.cut(window);
  if (!Number.isFinite(loudness)) throw undecodable('silent: no part of the analysed audio is above -70 LUFS');
  return {
    format,
    samples: toAnalysisRate(mono, rate),
    offsetSeconds: window.start / rate,
    durationSeconds: seconds,
    sourceSampleRate: rate,
    channels,
    loudness,
    subBlockPowers,
    ...(wholeTrack ? { wholeTrack } : {}),
  };
}

/**
 * The analysis window of a file as the engine takes it: the header facts first (what to keep
 * while decoding, the length a truncated file no longer reaches), then `decodeWindow`. The
 * worker and the benchmarks both go through here, so the benchmarks measure the service's path.
 */
export async function decodeAnalysisWindow(bytes: Uint8Array, windowSeconds: number): Promise<DecodedAudio> {
  return decodeWindow(bytes, { windowSeconds, ...(await headerFacts(bytes)) });
}
