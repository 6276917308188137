import { tempoCandidates } from './rhythm';
import type { TempoCandidate } from './rhythm.level';
import { onsetEnvelopes } from './rhythm.onsets';
import { Stft } from './signal.stft';
import { analyseTonal } from './tonal';
import { chromaOf, chromaSum } from './tonal.chroma';
import { toAnalysisRate } from './window';

/**
 * What the key and the tempo read of a whole file, when its analysis window is only part of it:
 * the sums of its sustained chroma and of its bass line, frame by frame, and how many seconds
 * they cover (tonal.key.ts reads the key from them); and each 30 s block's candidate tempi
 * with their probabilities (the level choice weighs the window's levels by them:
 * rhythm.level.ts, `chooseWithTrack`).
 */
export interface WholeTrack {
  sustained: Float64Array;
  bass: Float64Array;
  seconds: number;
  tempi: TempoCandidate[][];
}

/** The audio is read in blocks of this length, each through the engine's own stages as a window is. */
const BLOCK_SECONDS = 30;
/** A last block shorter than this (a fade, a few samples past the last full block) is left out. */
const MIN_TAIL_SECONDS = 1;
/** A last block shorter than this says nothing of the tempo: the level evidence reads bars of up to 13.5 s. */
const MIN_TEMPO_SECONDS = 15;

/** One STFT for every file a thread reads (its buffers are reused; a block is measured at once). */
let stft: Stft | undefined;

/**
 * The key and the tempo of the whole file, not only of its analysis window. A piece states its
 * key at its start and returns to it at its end; a 30 s window from the middle of a sonata
 * movement, a nocturne or a march's trio is often in the dominant, the subdominant or the
 * relative key (docs/engine/key.md, "The whole file"). A window from the middle of a song can be
 * its half-time bridge or a breakdown without drums, read at another level than the song's beat
 * (docs/FEATURES.md, "Tempo, beats, time signature"). So every sample the decoder produces is
 * read: mixed to mono, in 30 s blocks, each block through the engine's own stages as a window is
 * (44.1 kHz, the half-band filter, the spectrogram; `chromaOf` with the block's own tuning, the
 * onset envelopes and the level choice's candidates), the blocks' sustained chroma and bass line
 * summed and their candidate tempi kept: ~0.15 s of CPU a 30 s block.
 *
 * The decoder streams into it only while its window collector keeps a planned span (the headers
 * say the file is longer than its window); a collector that keeps every sample (a length unknown,
 * or within the window) holds the whole file already, and `wholeTrackOf` reads it after decoding.
 * So a clip whose headers give its length costs nothing more. A file no longer than
 * `wholeWindowSeconds` is its own analysis window, which the engine already reads: its blocks
 * are held, never measured, and `finish` returns undefined. Once a file has proved longer, its
 * held blocks are measured and every later one as it fills: past the first 45 s (the default
 * window's limit) one block fills while none is held, 5 MB at 44.1 kHz, whatever the file's
 * length; a longer ANALYSIS_WINDOW_S holds that many seconds of mono first, as the window itself does.
 */
export class WholeTrackReader {
  private rate = 0;
  private block = new Float32Array(0);
  private filled = 0;
  private seen = 0;
  /** Full blocks not measured yet: the file has not yet proved longer than its window. */
  private readonly held: Float32Array[] = [];
  private readonly sums = newSums();

  constructor(private readonly wholeWindowSeconds: number) {}

  /** The next decoded samples, every channel alike long (a decoder's chunk). */
  push(channelData: readonly Float32Array[], sampleRate: number): void {
    const first = channelData[0];
    if (!first || first.length === 0) return;
    if (this.rate === 0) {
      this.rate = sampleRate;
      this.block = new Float32Array(Math.round(BLOCK_SECONDS * sampleRate));
    }
    const gain = 1 / channelData.length;
    for (let from = 0; from < first.length; ) {
      const n = Math.min(first.length - from, this.block.length - this.filled);
      for (const channel of channelData) addScaled(channel, from, from + n, gain, this.block, this.filled);
      this.filled += n;
      this.seen += n;
      from += n;
      if (this.filled === this.block.length) {
        if (this.longerThanWindow()) {
          // Measured at once: the block's array fills again (no garbage of 5 MB a block).
          this.measureHeld();
          this.measure(this.block);
          this.block.fill(0);
        } else {
          this.held.push(this.block);
          this.block = new Float32Array(this.block.length);
        }
        this.filled = 0;
      }
    }
    if (this.longerThanWindow()) this.measureHeld();
  }

  /** What the whole file says, or undefined when the file is its own analysis window. */
  finish(): WholeTrack | undefined {
    if (!this.longerThanWindow()) return undefined;
    this.measureHeld();
    if (this.filled >= MIN_TAIL_SECONDS * this.rate) this.measure(this.block.subarray(0, this.filled));
    this.filled = 0;
    const { sustained, bass, seconds, tempi } = this.sums;
    return { sustained: sustained.slice(), bass: bass.slice(), seconds, tempi: [...tempi] };
  }

  private longerThanWindow(): boolean {
    return this.rate > 0 && this.seen > this.wholeWindowSeconds * this.rate;
  }

  private measureHeld(): void {
    for (const block of this.held.splice(0)) this.measure(block);
  }

  private measure(mono: Float32Array): void {
    addBlock(mono, this.rate, this.sums);
  }
}

const newSums = (): WholeTrack => ({ sustained: new Float64Array(12), bass: new Float64Array(12), seconds: 0, tempi: [] });

/** Adds one block (mono at `rate`) to `sums`: its sustained chroma and bass line, and its candidate tempi when it is long enough. */
function addBlock(mono: Float32Array, rate: number, sums: WholeTrack): void {
  stft ??= new Stft();
  const spec = stft.spectrogram(stft.halfRate(toAnalysisRate(mono, rate)));
  const chroma = chromaOf(spec);
  const sustained = chromaSum(chroma, 0, chroma.count, 'sustained');
  const bass = chromaSum(chroma, 0, chroma.count, 'bass');
  for (let k = 0; k < 12; k++) {
    sums.sustained[k]! += sustained[k]!;
    sums.bass[k]! += bass[k]!;
  }
  const seconds = mono.length / rate;
  sums.seconds += seconds;
  if (seconds >= MIN_TEMPO_SECONDS) sums.tempi.push(tempoCandidates(onsetEnvelopes(spec), chroma, analyseTonal(chroma).tonality));
}

/**
 * The same of a whole file's mono samples already at hand (a decode that kept every sample), in
 * the same 30 s blocks as WholeTrackReader reads a stream, a last block under a second left out.
 */
export function wholeTrackOf(mono: Float32Array, rate: number): WholeTrack {
  const sums = newSums();
  const block = Math.round(BLOCK_SECONDS * rate);
  for (let at = 0; at < mono.length; at += block) {
    const part = mono.subarray(at, Math.min(mono.length, at + block));
    if (part.length < block && part.length < MIN_TAIL_SECONDS * rate) break;
    addBlock(part, rate, sums);
  }
  return sums;
}

/** out[at + i - from] += x[i] · gain for i in [from, to). */
function addScaled(x: Float32Array, from: number, to: number, gain: number, out: Float32Array, at: number): void {
  for (let i = from; i < to; i++) out[at + i - from] = out[at + i - from]! + x[i]! * gain;
}
