import FFT from 'fft.js';

// Local bindings: under Jest's vm sandbox a global lookup per sample is several times slower.
const { PI, ceil, cos, exp, floor, log, log10 } = Math;

/**
 * The input of Essentia's MusiCNN models, as Essentia computes it (TensorflowInputMusiCNN, and
 * essentia.js's `EssentiaTFInputExtractor(…, 'musicnn')` framing): 16 kHz mono cut into frames
 * of 512 samples every 256, each Hann-windowed (Essentia's 0.5 − 0.5·cos(2πi/(N−1)), not
 * normalised), its magnitude spectrum (257 bins) squared and summed through 96 triangular mel
 * bands (Slaney's mel scale from 0 to 8 kHz, triangles linear in Hz, each divided by its
 * theoretical area, "unit_tri"), then log10(1 + 10000·x). Frames are placed as Essentia's
 * FrameCutter places them (the first centred on sample 0, zero-padded on the left) and frames
 * of digital silence are dropped, as essentia.js's FrameGenerator drops them.
 */
export const MUSICNN_RATE = 16000;
export const MUSICNN_FRAME = 512;
export const MUSICNN_HOP = 256;
export const MUSICNN_BANDS = 96;
/** Frames per model input (a patch: 187 × 256 / 16 kHz ≈ 3 s). */
export const MUSICNN_PATCH = 187;

const SPECTRUM_BINS = MUSICNN_FRAME / 2 + 1;

function hzToMelSlaney(hz: number): number {
  if (hz < 1000) return hz * (3 / 200);
  return 15 + log(hz / 1000) / (log(6.4) / 27);
}

function melToHzSlaney(mel: number): number {
  if (mel < 15) return mel / (3 / 200);
  return 1000 * exp((mel - 15) * (log(6.4) / 27));
}

interface MelFilter {
  first: number;
  weights: Float64Array;
}

/** Essentia's MelBands(96, 0–8000 Hz, slaneyMel, linear weighting, unit_tri) over 257 bins. */
function melFilters(): MelFilter[] {
  const lowMel = hzToMelSlaney(0);
  const step = (hzToMelSlaney(MUSICNN_RATE / 2) - lowMel) / (MUSICNN_BANDS + 1);
  const edges: number[] = [];
  for (let i = 0, mel = lowMel; i < MUSICNN_BANDS + 2; i++, mel += step) edges.push(melToHzSlaney(mel));
  const binHz = MUSICNN_RATE / 2 / (SPECTRUM_BINS - 1);
  const filters: MelFilter[] = [];
  for (let i = 0; i < MUSICNN_BANDS; i++) {
    const [lo, mid, hi] = [edges[i]!, edges[i + 1]!, edges[i + 2]!];
    const first = ceil(lo / binHz);
    const last = Math.min(floor(hi / binHz), SPECTRUM_BINS - 1);
    const area = (mid - lo + (hi - mid)) / 2;
    const weights = new Float64Array(Math.max(0, last - first + 1));
    for (let j = first; j <= last; j++) {
      const f = j * binHz;
      const w = f < mid ? (f - lo) / (mid - lo) : (hi - f) / (hi - mid);
      weights[j - first] = w / area;
    }
    filters.push({ first, weights });
  }
  return filters;
}

/** Essentia's `isSilent`: mean power below 1e-10. */
function isSilent(frame: Float64Array): boolean {
  let power = 0;
  for (let i = 0; i < frame.length; i++) power += frame[i]! * frame[i]!;
  return power / frame.length < 1e-10;
}

/** Log-compressed mel frames: frame f's bands are bands[f * 96 … f * 96 + 96). */
export interface MusicnnFrames {
  frames: number;
  bands: Float32Array;
}

/**
 * Computes MusiCNN input frames; one instance holds its FFT, window and filters for reuse.
 */
export class MusicnnInput {
  private readonly fft = new FFT(MUSICNN_FRAME);
  private readonly window = new Float64Array(MUSICNN_FRAME);
  private readonly filters = melFilters();
  private readonly frame = new Float64Array(MUSICNN_FRAME);
  private readonly complex: Float64Array;
  private readonly power = new Float64Array(SPECTRUM_BINS);

  constructor() {
    for (let i = 0; i < MUSICNN_FRAME; i++) this.window[i] = 0.5 - 0.5 * cos((2 * PI * i) / (MUSICNN_FRAME - 1));
    this.complex = new Float64Array(2 * MUSICNN_FRAME);
  }

  /** Frames of 16 kHz mono samples (see the module's description for placement and silence). */
  frames(samples: Float32Array): MusicnnFrames {
    const n = samples.length;
    // FrameCutter (startFromZero false): frame k starts at k·hop − frame/2 and frames are cut
    // while their start is before the end of the signal.
    const starts: number[] = [];
    for (let start = -MUSICNN_FRAME / 2; start < n; start += MUSICNN_HOP) starts.push(start);
    const out = new Float32Array(starts.length * MUSICNN_BANDS);
    let kept = 0;
    const { frame, window, complex, power, filters } = this;
    for (const start of starts) {
      for (let i = 0; i < MUSICNN_FRAME; i++) {
        const at = start + i;
        frame[i] = at >= 0 && at < n ? samples[at]! : 0;
      }
      if (isSilent(frame)) continue;
      for (let i = 0; i < MUSICNN_FRAME; i++) frame[i] = frame[i]! * window[i]!;
      this.fft.realTransform(complex, frame);
      for (let k = 0; k < SPECTRUM_BINS; k++) {
        const re = complex[2 * k]!;
        const im = complex[2 * k + 1]!;
        power[k] = re * re + im * im;
      }
      const row = kept * MUSICNN_BANDS;
      for (let b = 0; b < MUSICNN_BANDS; b++) {
        const { first, weights } = filters[b]!;
        let sum = 0;
        for (let j = 0; j < weights.length; j++) sum += power[first + j]! * weights[j]!;
        out[row + b] = log10(1 + 10000 * sum);
      }
      kept++;
    }
    return { frames: kept, bands: out.subarray(0, kept * MUSICNN_BANDS) };
  }
}

/**
 * Frames a last, partial patch must hold to be read: half a patch (94 frames, 1.5 s). essentia.js's
 * mood-classifiers demo pads any last patch with zeros and counts it as much as a whole one;
 * Essentia's own predictor (TensorflowPredictMusiCNN, lastPatchMode discard) drops every partial
 * patch. A 30 s window is 1,876 frames: 10 patches and 6 frames, whose patch would be 97 % zeros,
 * cost a model run like any other and weigh as much as 3 s of music in the mean.
 */
export const MUSICNN_MIN_TAIL = ceil(MUSICNN_PATCH / 2);

/**
 * The patches the models read of these frames: essentia.js's layout (no overlap, the last one
 * zero-padded), less a last patch of fewer than MUSICNN_MIN_TAIL frames when whole patches come
 * before it. At least one.
 */
export function patchCount(frames: number): number {
  const whole = floor(frames / MUSICNN_PATCH);
  const rest = frames - whole * MUSICNN_PATCH;
  return Math.max(1, whole + (rest >= MUSICNN_MIN_TAIL || whole === 0 ? 1 : 0));
}

/** The patches of essentia.js's layout, the last partial one included whatever it holds. */
export function paddedPatchCount(frames: number): number {
  return Math.max(1, ceil(frames / MUSICNN_PATCH));
}

/**
 * Patches `which` (indexes into the patchCount(frames) patches of essentia.js's layout) copied
 * into `into` (which.length × 187 × 96, zero-padded past the last frame).
 */
export function patchesInto(input: MusicnnFrames, which: readonly number[], into: Float32Array): void {
  const size = MUSICNN_PATCH * MUSICNN_BANDS;
  into.fill(0, 0, which.length * size);
  which.forEach((p, i) => {
    const from = p * size;
    const to = Math.min(from + size, input.bands.length);
    if (to > from) into.set(input.bands.subarray(from, to), i * size);
  });
}
