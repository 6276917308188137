import { type LogisticFormula, logistic, winnerLead } from './logistic';
import { TIGHTNESS, trackBeats } from './rhythm.beats';
import { sampleAt } from './rhythm.periods';
import calibration from './tempo.calibration.json';

// Local bindings: under Jest's vm sandbox a global lookup per bin is several times slower.
const { exp, log, log2 } = Math;

/**
 * The level choice: which of the candidate periods is the beat a listener taps.
 *
 * Every candidate is tracked (rhythm.beats.ts) and described by evidence a listener's choice
 * rests on; a log-linear score weighs it and the best score wins (a softmax over the scores
 * gives each level's probability, the tempo confidence):
 *
 * - **tempo preference**: a log-normal preference for moderate tempi whose width is fixed and
 *   whose centre is fitted: the fixed term -log2(BPM / 120)² / (2 · 0.6²), a spread of 0.6
 *   octave (listeners' preferred tapping rate, van Noorden & Moelants 1999; the Rayleigh prior
 *   of Davies & Plumbley's tracker plays the same part), plus the linear term `x` =
 *   log2(BPM / 120) weighted like the evidence below. Together they are one log-normal of the
 *   same width centred at 120 · 2^(0.36 · w) BPM for the weight w of `x`;
 * - **beat salience** `on`: the onset strength at the tracked beats over the mean onset strength
 *   (the beat carries the accents);
 * - **subdivision** `half`, `third`: the onset strength halfway between beats and at their
 *   thirds, over that at the beats (a beat is divided by the notes between beats; a level with
 *   empty halves is a tatum, with full thirds a compound beat);
 * - **metrical structure** `lowBar`: the low band's autocorrelation at 2 periods (kick and
 *   bass patterns repeat every two beats);
 * - **backbeat** `high`: the salience of the band above 2 kHz at the beats (snare and hats
 *   mark the beat);
 * - **harmonic rhythm** `chords`, `notTwo`: the chord-change curve's autocorrelation at 3 or 4
 *   periods, and that less at 2 (chords change once a bar, a bar being 3 or 4 beats), each times
 *   how clearly the window's chroma names a key (little of it for drums alone): the evidence that
 *   carries music without drums;
 * - **body gap** `bodyGap`: how much more the onsets below 2 kHz (kick, snare body, bass,
 *   chords) differ between odd and even beats than all the onsets do. At the double of a drum
 *   machine's beat every other "beat" holds only a hat: the body is missing there while the hats
 *   keep the whole onset curve even; at the beat, kick and snare take turns and both have body;
 * - **a beat in three left empty** `weakThird`: the weakest of every three tracked beats against
 *   their mean (`weakestOfThree`). A level at 3:2 of the beat falls on the beat, then on the
 *   second note of a shuffle's or a swing's pair, then between them where nothing is played, in
 *   turn: one "beat" in three is empty. At the beat, and at its double or half, every place of the
 *   three is played alike (engine 33).
 *
 * The weights are fitted by `npm run bench:tempo-levels` (softmax regression over the candidates
 * of songs with a known tempo, each set weighted equally and, within a set, songs at crowded
 * tempi less, so that the sets' own tempo distribution is not learned as evidence) and reported
 * there with their leave-one-set-out accuracy; BENCHMARKS.md has the figures.
 */
export interface LevelInputs {
  fps: number;
  /** The onset envelope the beats are tracked on. */
  onset: Float64Array;
  /** Onsets above 2 kHz. */
  high: Float64Array;
  /**
   * How clearly the window's chroma names a key, 0-1 (the key stage's tonality: its best
   * correlation with a key profile): how far the chord-change curve can be believed. Drums
   * alone change the chroma on every hit, and their "harmonic rhythm" is the drum pattern's.
   */
  tonality: number;
  /** Onsets below 2 kHz: the low and middle bands, each over its mean. */
  body: Float64Array;
  /** Autocorrelations of the low band and of the chord-change curve. */
  rLow: Float64Array;
  rChords: Float64Array;
}

export const LEVEL_FEATURES = ['x', 'on', 'half', 'third', 'lowBar', 'high', 'chords', 'notTwo', 'bodyGap', 'weakThird'] as const;

/**
 * How strictly the beats the evidence is read at keep to the candidate's period: four times the
 * timeline's (rhythm.beats.ts). A looser tracker, stretching and shrinking its intervals, hops
 * between strong hits that are not a period apart (4 and 6 sixteenths for a period of 5) and
 * lends a wrong level the salience of the true one. Chosen by bench:tempo-levels (BENCHMARKS.md).
 */
const EVIDENCE_TIGHTNESS = 4 * TIGHTNESS;

/** Centre (BPM) and spread (octaves) of the tempo preference. */
const PREFERRED_BPM = 120;
const PREFERENCE_OCTAVES = 0.6;

/** The log of the tempo preference at `bpm` (0 at 120 BPM, -1.4 an octave away). */
export function tempoPreference(bpm: number): number {
  const x = log2(bpm / PREFERRED_BPM);
  return -(x * x) / (2 * PREFERENCE_OCTAVES * PREFERENCE_OCTAVES);
}

export interface Level {
  bpm: number;
  period: number;
  /** Beat frames tracked at this period, held to it by EVIDENCE_TIGHTNESS. */
  beats: number[];
  /** Log of the tempo preference at this level. */
  preference: number;
  /** Evidence, in the order of LEVEL_FEATURES. */
  features: number[];
}

export const LEVEL_WEIGHTS: readonly number[] = [3.24, 4.87, 2.79, -1.39, 2.25, 2.42, 2.46, 2.77, 2.18, 2.47];

const mean = (x: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]!;
  return x.length > 0 ? s / x.length : 0;
};

/** The envelope's largest value within a frame of t. */
function peakNear(x: Float64Array, t: number): number {
  const i = Math.round(t);
  return Math.max(x[i - 1] ?? 0, x[i] ?? 0, x[i + 1] ?? 0);
}

/** Mean of x near the points `fraction` of the way from each beat to the next, over x's mean. */
function strengthBetween(x: Float64Array, beats: readonly number[], fractions: readonly number[], xMean: number): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i + 1 < beats.length; i++) {
    for (const f of fractions) {
      s += peakNear(x, beats[i]! + f * (beats[i + 1]! - beats[i]!));
      n++;
    }
  }
  return n > 0 && xMean > 0 ? s / n / xMean : 0;
}

/**
 * How unlike odd and even beats are: ln((weaker + 0.1) / (stronger + 0.1)) of the mean of x at
 * the odd and at the even beats, each over x's mean (0 when alike, negative when they alternate).
 */
function alternation(x: Float64Array, beats: readonly number[], xMean: number): number {
  const sum = [0, 0];
  const count = [0, 0];
  beats.forEach((b, i) => {
    sum[i % 2]! += peakNear(x, b);
    count[i % 2]!++;
  });
  const [odd, even] = [0, 1].map((k) => sum[k]! / Math.max(1, count[k]!) / (xMean || 1)) as [number, number];
  return log((Math.min(odd, even) + 0.1) / (Math.max(odd, even) + 0.1));
}

/**
 * How empty the weakest of every three beats is: the beats taken three by three, the mean of x at
 * each of the three places over x's mean, ln((weakest + 0.1) / (their mean + 0.1)) (0 when all
 * three are played alike, negative when one place is left empty).
 */
function weakestOfThree(x: Float64Array, beats: readonly number[], xMean: number): number {
  const sum = [0, 0, 0];
  const count = [0, 0, 0];
  beats.forEach((b, i) => {
    sum[i % 3]! += peakNear(x, b);
    count[i % 3]!++;
  });
  const places = [0, 1, 2].map((k) => sum[k]! / Math.max(1, count[k]!) / (xMean || 1));
  const average = (places[0]! + places[1]! + places[2]!) / 3;
  return log((Math.min(...places) + 0.1) / (average + 0.1));
}

/** Strength ratios enter as log(ratio + 0.5): the offset keeps an empty subdivision (ratio 0) from weighing more than a weak one. */
const logOf = (v: number): number => log(Math.max(0, v) + 0.5);

/** The candidates at `periods`, each with its evidence (the curves' means taken once for all). */
export function describeLevels(inputs: LevelInputs, periods: readonly number[]): Level[] {
  const means = { onset: mean(inputs.onset), high: mean(inputs.high), body: mean(inputs.body) };
  return periods.map((period) => levelAt(inputs, means, period));
}

export function describeLevel(inputs: LevelInputs, period: number): Level {
  return describeLevels(inputs, [period])[0]!;
}

function levelAt(inputs: LevelInputs, means: { onset: number; high: number; body: number }, period: number): Level {
  const { onset, high, body, rLow, rChords, fps, tonality } = inputs;
  const beats = trackBeats(onset, period, EVIDENCE_TIGHTNESS);
  const bpm = (fps * 60) / period;
  const { onset: onsetMean, high: highMean } = means;
  const chords = tonality * Math.max(sampleAt(rChords, 3 * period), sampleAt(rChords, 4 * period));
  const on = strengthBetween(onset, beats, [0], onsetMean);
  const features = [
    log2(bpm / PREFERRED_BPM),
    logOf(on),
    logOf(strengthBetween(onset, beats, [1 / 2], onsetMean) / (on || 1)),
    logOf(strengthBetween(onset, beats, [1 / 3, 2 / 3], onsetMean) / (on || 1)),
    sampleAt(rLow, 2 * period),
    logOf(strengthBetween(high, beats, [0], highMean)),
    chords,
    chords - tonality * sampleAt(rChords, 2 * period),
    alternation(body, beats, means.body) - alternation(onset, beats, onsetMean),
    weakestOfThree(onset, beats, onsetMean),
  ];
  return { bpm, period, beats, preference: tempoPreference(bpm), features };
}

export function levelScore(level: Level, weights: readonly number[] = LEVEL_WEIGHTS): number {
  return level.features.reduce((s, v, i) => s + v * (weights[i] ?? 0), level.preference);
}

/** Every level with its softmax probability among the candidates, most probable first. */
export function rankLevels(levels: readonly Level[], weights: readonly number[] = LEVEL_WEIGHTS): { level: Level; probability: number }[] {
  if (levels.length === 0) return [];
  const scores = levels.map((l) => levelScore(l, weights));
  const top = Math.max(...scores);
  const z = scores.reduce((s, v) => s + exp(v - top), 0);
  return levels
    .map((level, i) => ({ level, probability: exp(scores[i]! - top) / z, i }))
    .sort((a, b) => b.probability - a.probability || a.i - b.i)
    .map(({ level, probability }) => ({ level, probability }));
}

/** A candidate tempo and its probability of being the tapped level. */
export interface TempoCandidate {
  bpm: number;
  probability: number;
}

/** A block's candidate within this share of a window's level is the same level. */
const SAME_TEMPO = 0.04;

/**
 * The window's levels ranked again by the whole track (engine 35): each level's probability in
 * the window plus, for every 30 s block of the file, the probability that block gives the same
 * tempo (its most probable candidate within 4 %), the sums normalised to probabilities. A window
 * from the middle of a song can be its half-time bridge, its breakdown without drums or a
 * passage where the drums double; the blocks around it, most of the song, say where the beat is.
 * Only the window's own candidates can win, so that its beats, meter and tempo are read at the
 * chosen level; the blocks only weigh them.
 */
export function chooseWithTrack(
  ranked: readonly { level: Level; probability: number }[],
  blocks: readonly (readonly TempoCandidate[])[],
): { level: Level; probability: number }[] {
  const scored = ranked.map(({ level, probability }, i) => {
    let score = probability;
    for (const block of blocks) {
      let best = 0;
      for (const c of block) if (Math.abs(c.bpm - level.bpm) <= SAME_TEMPO * level.bpm) best = Math.max(best, c.probability);
      score += best;
    }
    return { level, score, i };
  });
  const total = scored.reduce((s, x) => s + x.score, 0) || 1;
  return scored
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ level, score }) => ({ level, probability: score / total }));
}

/** The best-scoring level and its softmax probability among the candidates. */
export function chooseLevel(levels: readonly Level[], weights: readonly number[] = LEVEL_WEIGHTS): { level: Level; probability: number } | undefined {
  return rankLevels(levels, weights)[0];
}

/**
 * The numbers the tempo confidence is calibrated on, of the levels ranked by rankLevels: the log
 * odds of the chosen level's probability, its lead over the runner-up (ln p₁ / p₂), and how far
 * the chosen tempo lies from 120 BPM in octaves (a fast or a slow reading is the one listeners
 * most often tap at another level).
 */
export function tempoCalibrationInputs(ranked: readonly { level: Level; probability: number }[]): Record<TempoCalibrationInput, number> {
  const bpm = ranked[0]?.level.bpm ?? PREFERRED_BPM;
  return { ...winnerLead(ranked[0]?.probability ?? 0, ranked[1]?.probability ?? 0), distance: Math.abs(log2(bpm / PREFERRED_BPM)) };
}

export const TEMPO_CALIBRATION_INPUTS = ['logit', 'margin', 'distance'] as const;
export type TempoCalibrationInput = (typeof TEMPO_CALIBRATION_INPUTS)[number];

/** The calibration `npm run bench:tempo-levels -- --write` fitted (tempo.calibration.json): P(right) = σ(bias + Σ weight · input). */
export const TEMPO_CALIBRATION: LogisticFormula & { weights: Record<TempoCalibrationInput, number> } = { bias: calibration.bias, weights: calibration.weights };

/**
 * The tempo confidence: the calibrated probability that the chosen level is the one listeners tap
 * (within 4 % of their tempo), a ridge logistic regression of the level choice's own probability,
 * its lead and the tempo's distance from 120 BPM, fitted on the left-out choices of recorded and
 * produced music (bench:tempo-levels). 0 with no level.
 */
export function tempoConfidence(ranked: readonly { level: Level; probability: number }[], cal: LogisticFormula = TEMPO_CALIBRATION): number {
  return ranked.length === 0 ? 0 : logistic(cal, tempoCalibrationInputs(ranked));
}
