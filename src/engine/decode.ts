import { AppError } from '../core/errors';
import { headerFacts } from './probe';
import { WindowCollector, chooseWindow, keepRangeFor, toAnalysisRate } from './window';

/** The containers accepted: the formats the issue names, each with an MIT-licensed decoder. */
export type AudioFormat = 'mp3' | 'oga' | 'opus' | 'flac' | 'wav';

const FORMAT_NAMES: Record<AudioFormat, string> = {
  mp3: 'MP3',
  oga: 'Ogg Vorbis',
  opus: 'Ogg Opus',
  flac: 'FLAC',
  wav: 'WAV',
};

/** Shortest audio the measurements can say anything about. */
export const MIN_ANALYSABLE_SECONDS = 1;

/** Bytes handed to the decoder at a time; bounds the PCM that exists beside the kept window. */
const CHUNK_BYTES = 256 * 1024;

/** A decoded length below this share of the length the headers declare means a cut-off file. */
const TRUNCATION_RATIO = 0.9;

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
}

const undecodable = (message: string, cause?: unknown): AppError =>
  new AppError('AUDIO_UNDECODABLE', message, cause === undefined ? undefined : { cause });

/** Recognises the container from its first bytes; undefined when it is none of ours. */
export function sniffFormat(bytes: Uint8Array): AudioFormat | undefined {
  const ascii = (offset: number, text: string): boolean =>
    bytes.length >= offset + text.length && [...text].every((ch, i) => bytes[offset + i] === ch.charCodeAt(0));
  if ((ascii(0, 'RIFF') || ascii(0, 'RF64')) && ascii(8, 'WAVE')) return 'wav';
  if (ascii(0, 'fLaC')) return 'flac';
  if (ascii(0, 'OggS')) {
    // The first page carries the codec's identification header right after its segment table.
    const segments = bytes[26] ?? 0;
    const body = 27 + segments;
    if (ascii(body, 'OpusHead')) return 'opus';
    if (bytes[body] === 1 && ascii(body + 1, 'vorbis')) return 'oga';
    return undefined;
  }
  let offset = 0;
  if (ascii(0, 'ID3') && bytes.length >= 10) {
    // ID3v2 size is "syncsafe": 4 x 7 bits, after a 10-byte header (+10 with a footer).
    const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
    offset = 10 + size + ((bytes[5]! & 0x10) !== 0 ? 10 : 0);
    if (ascii(offset, 'fLaC')) return 'flac';
  }
  // Some files pad between the tag and the first frame: look a little further for two
  // consecutive frame headers (one alone turns up by chance every few KB of random bytes).
  const limit = Math.min(bytes.length - 4, offset + 16384);
  for (let i = offset; i < limit; i++) {
    if (bytes[i] !== 0xff) continue;
    const first = mpegFrame(bytes, i);
    if (!first) continue;
    const next = i + first.length;
    if (next + 4 > bytes.length) return 'mp3';
    const second = mpegFrame(bytes, next);
    if (second && second.signature === first.signature) return 'mp3';
  }
  return undefined;
}

const MPEG_BITRATES: Record<string, readonly number[]> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MPEG_RATES: Record<number, readonly number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** The MPEG audio frame whose header starts at `i`: its length in bytes and what must repeat. */
function mpegFrame(bytes: Uint8Array, i: number): { length: number; signature: number } | undefined {
  const b1 = bytes[i + 1];
  const b2 = bytes[i + 2];
  if (bytes[i] !== 0xff || b1 === undefined || b2 === undefined || (b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 3;
  const layer = 4 - ((b1 >> 1) & 3);
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layer === 4 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const bitrate = MPEG_BITRATES[`${versionBits === 3 ? 1 : 2}-${layer}`]![bitrateIndex]! * 1000;
  const rate = MPEG_RATES[versionBits]![rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const length =
    layer === 1
      ? (Math.floor((12 * bitrate) / rate) + padding) * 4
      : Math.floor(((layer === 3 && versionBits !== 3 ? 72 : 144) * bitrate) / rate) + padding;
  return { length, signature: (b1 & 0xfe) * 4 + rateIndex };
}

/**
 * The length a WAV file's RIFF header promises, in bytes, when it says more than the file has:
 * the WAV decoder silently decodes what is there, so truncation is seen here.
 */
function wavShortfall(bytes: Uint8Array): number | undefined {
  if (bytes.length < 12) return undefined;
  const declared = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true) + 8;
  if (declared === 0xffffffff + 8 || declared === 8) return undefined; // streamed WAV: size unknown
  return declared > bytes.length ? declared : undefined;
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

async function decodeInto(bytes: Uint8Array, format: AudioFormat, collector: WindowCollector): Promise<void> {
  const decoders = await loadDecoders();
  const decoder = await decoders[format]();
  let finished = false;
  try {
    for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
      const out = await decoder(bytes.subarray(offset, Math.min(bytes.length, offset + CHUNK_BYTES)));
      collector.push(out.channelData, out.sampleRate);
    }
    finished = true;
    const tail = await decoder();
    collector.push(tail.channelData, tail.sampleRate);
  } catch (error) {
    if (!finished) decoder.free();
    const at = collector.sampleRate > 0 ? ` after ${(collector.totalSamples / collector.sampleRate).toFixed(1)} s` : '';
    throw undecodable(`corrupt ${FORMAT_NAMES[format]} data: the decoder failed${at}`, error);
  }
}

/**
 * Decodes the analysis window of an audio file: streams the file through the decoder, keeps
 * only the samples around the window its headers imply (mono), measures their loudness, cuts
 * the exact window once the true length is known and resamples only that to 44.1 kHz.
 *
 * `estimatedSeconds` (from the tags parser) only decides what to keep; when it was wrong the
 * file is decoded a second time keeping the exact window. `declaredSeconds`, when the headers
 * state a length exactly (FLAC STREAMINFO, an MP3 LAME/Xing tag), detects truncated files.
 */
export async function decodeWindow(
  bytes: Uint8Array,
  options: { windowSeconds: number; estimatedSeconds?: number; declaredSeconds?: number },
): Promise<DecodedAudio> {
  if (bytes.length === 0) throw undecodable('empty file');
  const format = sniffFormat(bytes);
  if (!format) throw undecodable('unknown or unsupported format (expected MP3, Ogg Vorbis, Ogg Opus, FLAC or WAV)');
  const name = FORMAT_NAMES[format];
  const declaredWavBytes = format === 'wav' ? wavShortfall(bytes) : undefined;
  if (declaredWavBytes !== undefined) {
    throw undecodable(`truncated WAV: the header declares ${declaredWavBytes} bytes, the file has ${bytes.length}`);
  }

  const estimated = options.estimatedSeconds;
  // Room for the estimated length and a little more, so that the kept samples are not copied over.
  const expected = (rate: number): number | undefined => (estimated === undefined ? undefined : (estimated * 1.05 + 1) * rate);
  let collector = new WindowCollector((rate) => keepRangeFor(estimated, rate, options.windowSeconds), expected);
  await decodeInto(bytes, format, collector);

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
  if (!collector.covers(window)) {
    collector = new WindowCollector(window);
    await decodeInto(bytes, format, collector);
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
