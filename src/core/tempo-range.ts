import type { AudioFeatures } from './types';

/**
 * A DJ's BPM range: the octave a crate's tempi are counted in (drum and bass at 160–180 rather
 * than 80–90, hip-hop at 80–100 rather than 160–200), as rekordbox, Traktor and Mixxx let their
 * analysis be told. The engine's tempo is the level it finds most probable; with a range, the
 * beat grid it finds most probable is counted at its octave inside the range instead
 * (docs/FEATURES.md, "A BPM range").
 */
export interface TempoRange {
  min: number;
  max: number;
}

/** The tempi a range may name, BPM: the engine's candidates lie within 40–215. */
export const TEMPO_RANGE_LIMITS: TempoRange = { min: 20, max: 400 };

/** Two tempi are the same beat grid at another octave when their ratio is within 4 % of a power of two (Acc2's tolerance, halves and doubles only). */
const SAME_GRID = Math.log2(1.04);

/**
 * `"70-140"` (or `70..140`) as a range; an Error saying what is wrong otherwise: both ends numbers
 * within TEMPO_RANGE_LIMITS, the first under the second.
 */
export function parseTempoRange(text: string): TempoRange {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:-|\.\.)\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  return checkTempoRange({ min: match ? Number(match[1]) : NaN, max: match ? Number(match[2]) : NaN }, `"${text}"`);
}

/**
 * A command line's `--bpm-range` value: no range when the flag is absent, else the parsed range,
 * or the message a refusal prints (the flag named) for the command to show with its usage.
 */
export function tempoRangeFlag(value: string | undefined): { range?: TempoRange; refused?: string } {
  if (value === undefined) return {};
  try {
    return { range: parseTempoRange(value) };
  } catch (error) {
    return { refused: `--bpm-range: ${(error as Error).message}` };
  }
}

/** The range itself when both ends lie within TEMPO_RANGE_LIMITS, the first under the second; an Error naming `given` otherwise. */
export function checkTempoRange(range: TempoRange, given = `${range.min} to ${range.max}`): TempoRange {
  const { min, max } = range;
  if (!(min >= TEMPO_RANGE_LIMITS.min && max <= TEMPO_RANGE_LIMITS.max && min < max)) {
    throw new Error(`a BPM range is two tempi from ${TEMPO_RANGE_LIMITS.min} to ${TEMPO_RANGE_LIMITS.max}, the lower first, as 70-140; not ${given}`);
  }
  return { min, max };
}

export interface TempoInRange {
  /** BPM, 0.1 steps; 0 when the analysis found no tempo. */
  tempo: number;
  /** The probability that the beat grid is the one a listener taps, at some octave (the summed probabilities of its levels), 0–1. */
  confidence: number;
  /** The levels of other beat grids (3:2 of it, mostly), most probable first, as tempoAlternatives. */
  alternatives: { tempo: number; confidence: number }[];
}

interface Grid {
  /** The grid's levels, the first the one that started it (the engine's choice, or the most probable of the alternatives left). */
  levels: { tempo: number; confidence: number }[];
  probability: number;
}

/** x to `per` steps of 1 (10: tenths). */
const round = (x: number, per: number): number => Math.round(x * per) / per;

/** `tempo` times the power of two that brings it into the range, or nearest it (a range narrower than an octave may hold none). */
function fold(tempo: number, { min, max }: TempoRange): number {
  let best = tempo;
  let distance = Infinity;
  for (let k = -4; k <= 4; k++) {
    const t = tempo * 2 ** k;
    const d = t < min ? Math.log2(min / t) : t > max ? Math.log2(t / max) : 0;
    if (d < distance - 1e-12) {
      best = t;
      distance = d;
    }
  }
  return best;
}

/**
 * The analysis' tempo counted within `range`: its tempo and tempo alternatives grouped into beat
 * grids (levels a power of two apart are one grid), the grid with the largest summed probability
 * chosen (the engine's own choice first on a tie), and of it the most probable level inside the
 * range — or, where none of its levels is, its most probable level halved or doubled into the
 * range (nearest it, for a range narrower than an octave).
 */
export function tempoInRange(features: Pick<AudioFeatures, 'tempo' | 'confidence' | 'tempoAlternatives'>, range: TempoRange): TempoInRange {
  const levels = [{ tempo: features.tempo, confidence: features.confidence.tempo }, ...(features.tempoAlternatives ?? [])].filter(
    (l) => Number.isFinite(l.tempo) && l.tempo > 0,
  );
  if (levels.length === 0 || !(features.tempo > 0)) return { tempo: 0, confidence: 0, alternatives: [] };
  const grids: Grid[] = [];
  for (const level of levels) {
    const grid = grids.find((g) => {
      const octaves = Math.log2(level.tempo / g.levels[0]!.tempo);
      return Math.abs(octaves - Math.round(octaves)) <= SAME_GRID;
    });
    if (grid) {
      grid.levels.push(level);
      grid.probability += level.confidence;
    } else grids.push({ levels: [level], probability: level.confidence });
  }
  // The first grid holds the engine's own choice: a later one must be more probable to win.
  const chosen = grids.reduce((best, g) => (g.probability > best.probability + 1e-12 ? g : best), grids[0]!);
  const inside = chosen.levels.filter((l) => l.tempo >= range.min && l.tempo <= range.max).sort((a, b) => b.confidence - a.confidence)[0];
  const top = [...chosen.levels].sort((a, b) => b.confidence - a.confidence)[0]!;
  return {
    tempo: round(inside ? inside.tempo : fold(top.tempo, range), 10),
    confidence: Math.min(1, round(chosen.probability, 1000)),
    alternatives: grids
      .filter((g) => g !== chosen)
      .flatMap((g) => g.levels)
      .sort((a, b) => b.confidence - a.confidence),
  };
}

/**
 * The features with their tempo counted within `range` (tempo, its confidence and alternatives
 * as tempoInRange gives them); the rest, the beat timeline included, as the engine measured them.
 */
export function withTempoRange<F extends Pick<AudioFeatures, 'tempo' | 'confidence' | 'tempoAlternatives'>>(features: F, range: TempoRange): F {
  const { tempo, confidence, alternatives } = tempoInRange(features, range);
  return { ...features, tempo, confidence: { ...features.confidence, tempo: confidence }, tempoAlternatives: alternatives };
}
