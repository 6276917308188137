/**
 * Periodicity of the onsets and the candidate beat periods it suggests.
 *
 * The candidates are the strongest peaks of the onset envelope's autocorrelation between 40 and
 * 215 BPM and, for each, the periods 2, 3, 1/2, 1/3, 3/2 and 2/3 times as long, each moved to
 * the autocorrelation peak within 3 % when there is one. A listener may tap any of these
 * levels of one metrical hierarchy; which one is the beat is the level choice's question
 * (rhythm.level.ts), so every level it should weigh is put before it, the 3:2 relatives too,
 * so that a dotted pulse is rejected by evidence rather than never considered.
 */

export const MIN_BPM = 40;
/**
 * The fastest beat considered. Songs beaten faster are rare (madmom's beat tracker stops at 215
 * BPM, essentia's at 208), while a reading above it is most often the double of a fast song or
 * four times a slow one: a level no evidence should have to argue away.
 */
export const MAX_BPM = 215;
/** How many autocorrelation peaks seed candidates. */
const SEED_PEAKS = 4;
const RELATIVES = [1, 2, 1 / 2, 3, 1 / 3, 3 / 2, 2 / 3];
/** Two candidates closer than this (share of the period) are one. */
const SAME_PERIOD = 0.025;

/** Sum of x[i] · x[i + lag] over the overlap. */
function lagProduct(x: Float64Array, lag: number): number {
  let s = 0;
  for (let i = 0; i + lag < x.length; i++) s += x[i]! * x[i + lag]!;
  return s;
}

/** Autocorrelation for lags 0 … maxLag, unbiased (divided by the overlap) and normalised to r(0) = 1. */
export function autocorrelation(x: Float64Array, maxLag: number): Float64Array {
  const top = Math.max(0, Math.min(maxLag, x.length - 1));
  const r = new Float64Array(maxLag + 1);
  for (let lag = 0; lag <= top; lag++) r[lag] = lagProduct(x, lag) / (x.length - lag);
  const r0 = r[0]! || 1;
  for (let lag = 0; lag <= top; lag++) r[lag] = r[lag]! / r0;
  return r;
}

/** x at fractional index t (linear interpolation, 0 outside). */
export function sampleAt(x: Float64Array, t: number): number {
  const i = Math.floor(t);
  const f = t - i;
  return (x[i] ?? 0) * (1 - f) + (x[i + 1] ?? 0) * f;
}

/**
 * The autocorrelation peak within ±3 % of `lag`, refined by parabolic interpolation; `lag` itself
 * when the largest value there lies at the edge (no peak: the signal does not repeat near this
 * lag, and a neighbouring pulse's slope would pull the period away).
 */
export function refinePeak(r: Float64Array, lag: number): number {
  const lo = Math.max(1, Math.floor(lag * 0.97));
  const hi = Math.min(r.length - 2, Math.ceil(lag * 1.03));
  let best = -1;
  for (let l = lo; l <= hi; l++) if (best < 0 || r[l]! > r[best]!) best = l;
  if (best <= lo || best >= hi) return lag;
  const a = r[best - 1]!;
  const b = r[best]!;
  const c = r[best + 1]!;
  const den = a - 2 * b + c;
  return den < 0 ? best + (0.5 * (a - c)) / den : best;
}

/** Candidate beat periods (frames) of an onset envelope's autocorrelation `r` at `fps` frames per second. */
export function candidatePeriods(r: Float64Array, fps: number): number[] {
  const minLag = Math.max(1, Math.floor((fps * 60) / MAX_BPM));
  const maxLag = Math.min(r.length - 2, Math.ceil((fps * 60) / MIN_BPM));
  const peaks: number[] = [];
  for (let lag = minLag; lag <= maxLag; lag++) if (r[lag]! > r[lag - 1]! && r[lag]! >= r[lag + 1]!) peaks.push(lag);
  peaks.sort((a, b) => r[b]! - r[a]!);
  const periods: number[] = [];
  for (const peak of peaks.slice(0, SEED_PEAKS)) {
    const seed = refinePeak(r, peak);
    for (const ratio of RELATIVES) {
      const guess = seed * ratio;
      const bpm = (fps * 60) / guess;
      if (bpm < MIN_BPM || bpm > MAX_BPM) continue;
      const period = guess * 1.03 < r.length - 1 ? refinePeak(r, guess) : guess;
      if (periods.some((p) => Math.abs(p - period) / period < SAME_PERIOD)) continue;
      periods.push(period);
    }
  }
  return periods;
}
