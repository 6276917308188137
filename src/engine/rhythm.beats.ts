/**
 * Beat times for a known beat period by dynamic programming (Ellis 2007): the beats are the
 * sequence of frames that maximises the onset strength at the beats less a penalty for every
 * interval that departs from the period, TIGHTNESS · ln(interval / period)². The best such
 * sequence follows a band's drift in tempo and locks onto the onsets it plays, which a rigid
 * grid at one period and phase does not.
 */

// Local bindings: under Jest's vm sandbox a global lookup per bin is several times slower.
const { log, sqrt } = Math;

/** How strongly intervals are held to the period (Ellis's α; his default): the beats the timeline shows. */
export const TIGHTNESS = 100;

/** Best predecessor of frame t within [t - hi, t - lo]: its cumulative score less the interval penalty. */
function bestPredecessor(score: Float64Array, t: number, lo: number, hi: number, logPeriod: number, tightness: number): number {
  let best = -Infinity;
  let bestP = -1;
  for (let p = Math.max(0, t - hi); p <= t - lo; p++) {
    const d = log(t - p) - logPeriod;
    const v = score[p]! - tightness * d * d;
    if (v > best) {
      best = v;
      bestP = p;
    }
  }
  return bestP;
}

/**
 * Beat frames of onset envelope `o` (frames per second irrelevant here) for a beat period of
 * `period` frames (fractional), intervals held to it by `tightness`. Ends on the best-scoring frame
 * of the last period and backtracks.
 */
export function trackBeats(o: Float64Array, period: number, tightness = TIGHTNESS): number[] {
  const n = o.length;
  if (n === 0 || !(period > 1)) return [];
  let squares = 0;
  for (let i = 0; i < n; i++) squares += o[i]! * o[i]!;
  const norm = sqrt(squares / n) || 1;
  const score = new Float64Array(n);
  const back = new Int32Array(n).fill(-1);
  const lo = Math.max(1, Math.round(period / 2));
  const hi = Math.round(period * 2);
  const logPeriod = log(period);
  for (let t = 0; t < n; t++) {
    const local = o[t]! / norm;
    const p = t >= lo ? bestPredecessor(score, t, lo, hi, logPeriod, tightness) : -1;
    const carried = p >= 0 ? score[p]! - tightness * (log(t - p) - logPeriod) ** 2 : 0;
    if (p >= 0 && carried > 0) {
      score[t] = local + carried;
      back[t] = p;
    } else {
      score[t] = local;
    }
  }
  let end = n - 1;
  for (let t = Math.max(0, n - Math.round(period)); t < n; t++) if (score[t]! > score[end]!) end = t;
  const beats: number[] = [];
  for (let t = end; t >= 0; t = back[t]!) beats.push(t);
  return beats.reverse();
}
