import type { TimeInterval } from '../core/types';

/** Shortest section produced, seconds. */
export const MIN_SECTION_SECONDS = 6;

/** Level change (dB) at which a section boundary is called certain. */
const CERTAIN_BOUNDARY_DB = 6;

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Beats as intervals from the start of the FILE: each lasts until the next beat; the last one
 * lasts the median beat period, cut at the window's end.
 */
export function beatIntervals(
  beats: readonly number[],
  confidences: readonly number[],
  offsetSeconds: number,
  windowSeconds: number,
): TimeInterval[] {
  const period = median(beats.slice(1).map((b, i) => b - beats[i]!));
  return beats.map((start, i) => {
    const next = beats[i + 1];
    const end = next ?? Math.min(windowSeconds, start + period);
    return {
      start: round3(offsetSeconds + start),
      duration: round3(Math.max(0, end - start)),
      confidence: round3(confidences[i] ?? 0),
    };
  });
}

/**
 * Bars from the downbeats: each lasts until the next downbeat (the last one `beatsPerBar` beat
 * periods, cut at the window's end). A bar's confidence is the mean confidence of its beats
 * times the confidence of the time signature.
 */
export function barIntervals(
  beats: readonly number[],
  confidences: readonly number[],
  downbeats: readonly number[],
  beatsPerBar: number,
  meterConfidence: number,
  offsetSeconds: number,
  windowSeconds: number,
): TimeInterval[] {
  const period = median(beats.slice(1).map((b, i) => b - beats[i]!));
  return downbeats.map((start, i) => {
    const next = downbeats[i + 1];
    const end = next ?? Math.min(windowSeconds, start + beatsPerBar * period);
    const inBar = beats.map((b, j) => (b >= start - 1e-6 && b < end - 1e-6 ? (confidences[j] ?? 0) : -1)).filter((c) => c >= 0);
    const beatConfidence = inBar.length > 0 ? inBar.reduce((a, b) => a + b, 0) / inBar.length : 0;
    return {
      start: round3(offsetSeconds + start),
      duration: round3(Math.max(0, end - start)),
      confidence: round3(beatConfidence * meterConfidence),
    };
  });
}

/** A section boundary inside the window (seconds from the window's start) and how sure it is. */
export interface Boundary {
  at: number;
  confidence: number;
}

/** Mean level (dB, floored at -90) of frames [from, to). */
function meanDb(frameDb: Float64Array, from: number, to: number): number {
  const a = Math.max(0, from);
  const b = Math.min(frameDb.length, to);
  let sum = 0;
  for (let i = a; i < b; i++) sum += Math.max(frameDb[i]!, -90);
  return b > a ? sum / (b - a) : -90;
}

/**
 * Section boundaries by level novelty: at each candidate time (downbeats, or every 2 s without
 * bars) the difference of the mean level (dB) of the 4 s after and before; the largest changes
 * win, at least MIN_SECTION_SECONDS apart and from the window's edges. Cheap (one pass over
 * the level envelope) and blind to changes of harmony or timbre at equal loudness.
 */
export function sectionBoundaries(
  frameDb: Float64Array,
  frameRate: number,
  candidates: readonly number[],
  windowSeconds: number,
): Boundary[] {
  const times = candidates.length >= 2 ? candidates : Array.from({ length: Math.floor(windowSeconds / 2) }, (_, i) => i * 2);
  const span = Math.round(4 * frameRate);
  const scored = times
    .filter((t) => t >= MIN_SECTION_SECONDS && t <= windowSeconds - MIN_SECTION_SECONDS)
    .map((t) => {
      const f = Math.round(t * frameRate);
      return { at: t, change: Math.abs(meanDb(frameDb, f, f + span) - meanDb(frameDb, f - span, f)) };
    })
    .sort((a, b) => b.change - a.change || a.at - b.at);
  const chosen: Boundary[] = [];
  const maxSections = Math.max(1, Math.floor(windowSeconds / MIN_SECTION_SECONDS));
  for (const c of scored) {
    if (chosen.length + 1 >= maxSections) break;
    if (c.change < 1) break;
    if (chosen.every((b) => Math.abs(b.at - c.at) >= MIN_SECTION_SECONDS)) {
      chosen.push({ at: c.at, confidence: Math.min(1, c.change / CERTAIN_BOUNDARY_DB) });
    }
  }
  return chosen.sort((a, b) => a.at - b.at);
}
