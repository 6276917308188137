import { CEPSTRAL_COEFFICIENTS, CEPSTRAL_DIMS, cepstralFrames as framesOfSpectrogram, supervector } from '../../../src/engine/sound.frames';
import { noise, rng, sinePad } from '../../../measure/audio/audio-signals';
import { fitDiagonalGmm } from '../../../measure/fit/gmm';
import { FRAMES_PER_SECOND, Stft } from '../../../src/engine/signal.stft';

/*
 * The signal path's bag of frames (src/engine/sound.frames.ts): the cepstral frames of a window,
 * a mixture of Gaussians fitted on frames (measure/fit/gmm.ts), and a song's supervector against it.
 */

const stft = new Stft();
const cepstralFrames = (samples: Float32Array): Float32Array => framesOfSpectrogram(stft.spectrogram(stft.halfRate(samples)));

/** `n` frames of two dimensions around `centre`, spread `sd` (Box–Muller from a seeded generator). */
function cluster(n: number, centre: [number, number], sd: number, seed: number): number[] {
  const random = rng(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const c of centre) {
      const u = Math.max(random(), 1e-12);
      out.push(c + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random()));
    }
  }
  return out;
}

describe('a mixture of diagonal Gaussians and its supervectors', () => {
  const frames = Float64Array.from([...cluster(300, [0, 0], 1, 1), ...cluster(700, [10, -5], 0.5, 2)]);
  const gmm = fitDiagonalGmm(frames, 2, 2);
  const order = gmm.means[0]! < gmm.means[2]! ? [0, 1] : [1, 0];

  it('EM finds two separated clusters: their means, spreads and shares', () => {
    const [a, b] = order as [number, number];
    expect(gmm.means[a * 2]!).toBeCloseTo(0, 0);
    expect(gmm.means[b * 2]!).toBeCloseTo(10, 0);
    expect(gmm.means[b * 2 + 1]!).toBeCloseTo(-5, 0);
    expect(gmm.weights[a]!).toBeCloseTo(0.3, 1);
    expect(Math.sqrt(gmm.variances[b * 2]!)).toBeCloseTo(0.5, 1);
  });

  it('a song like the whole mixture sits near 0; one whose frames of a cluster move moves that component alone', () => {
    const like = supervector(gmm, Float64Array.from([...cluster(300, [0, 0], 1, 3), ...cluster(700, [10, -5], 0.5, 4)]));
    expect(like).toHaveLength(4);
    expect(Math.max(...like.map(Math.abs))).toBeLessThan(0.1);
    const moved = supervector(gmm, Float64Array.from(cluster(100, [11, -5], 0.5, 5)));
    const [a, b] = order as [number, number];
    // The shift of 1, shrunk by 100 / (100 + 16), times √weight / σ.
    const expected = ((Math.sqrt(gmm.weights[b]!) * 100) / 116) / Math.sqrt(gmm.variances[b * 2]!);
    expect(moved[b * 2]! / expected).toBeGreaterThan(0.85);
    expect(moved[b * 2]! / expected).toBeLessThan(1.15);
    expect(Math.abs(moved[b * 2 + 1]!)).toBeLessThan(0.3);
    expect(Math.abs(moved[a * 2]!)).toBeLessThan(0.01);
  });

  it('refuses fewer frames than components', () => {
    expect(() => fitDiagonalGmm(new Float64Array(4), 2, 3)).toThrow('2 frames of 2 cannot fit 3 components');
  });
});

describe('cepstral frames', () => {
  const pad = sinePad(4);
  const frames = cepstralFrames(pad);
  const rows = frames.length / CEPSTRAL_DIMS;

  it('every second frame of the spectrogram, 20 coefficients and their change', () => {
    expect(Number.isInteger(rows)).toBe(true);
    expect(rows).toBeGreaterThan(Math.floor((4 * FRAMES_PER_SECOND) / 2) - 3);
    expect(rows).toBeLessThan(Math.ceil((4 * FRAMES_PER_SECOND) / 2) + 3);
    expect(frames.every(Number.isFinite)).toBe(true);
  });

  it('a louder copy moves the level (coefficient 0) alone', () => {
    const hiss = noise(4, 0.2);
    const quiet = cepstralFrames(hiss);
    const louder = cepstralFrames(hiss.map((v) => v * 4));
    const mid = Math.floor(rows / 2) * CEPSTRAL_DIMS;
    // Power × 16 in each of the 40 bands: log10 adds 1.204 to each, the DCT's first row sums them.
    expect(louder[mid]! - quiet[mid]!).toBeCloseTo(40 * Math.log10(16), 1);
    for (let c = 1; c < CEPSTRAL_DIMS; c++) expect(louder[mid + c]!).toBeCloseTo(quiet[mid + c]!, 1);
  });

  it('a held chord barely changes from frame to frame; noise and a chord differ in their spectral shape', () => {
    const mid = Math.floor(rows / 2) * CEPSTRAL_DIMS;
    expect(Math.abs(frames[mid + CEPSTRAL_COEFFICIENTS + 1]!)).toBeLessThan(1);
    const hiss = cepstralFrames(noise(4, 0.3));
    const meanOf = (f: Float32Array, c: number): number => {
      let s = 0;
      for (let r = 0; r < f.length / CEPSTRAL_DIMS; r++) s += f[r * CEPSTRAL_DIMS + c]!;
      return s / (f.length / CEPSTRAL_DIMS);
    };
    // The pad's energy lies low (a large first cosine term); white noise's is flat across the mel bands above.
    expect(meanOf(frames, 1)).toBeGreaterThan(meanOf(hiss, 1) + 1);
  });
});
