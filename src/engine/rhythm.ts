import { trackBeats } from './rhythm.beats';
import { type Level, type TempoCandidate, chooseWithTrack, describeLevels, rankLevels, tempoConfidence } from './rhythm.level';
import { measureMeter } from './rhythm.meter';
import { type OnsetEnvelopes, chordChange, detrend, onsetRate } from './rhythm.onsets';
import { MAX_BPM, MIN_BPM, autocorrelation, candidatePeriods, sampleAt } from './rhythm.periods';
import { type Chroma } from './tonal.chroma';

/**
 * Tempo, beats, bars and time signature, in stages that each live in a file of their own:
 * onset envelopes (rhythm.onsets.ts), their periodicity and the candidate periods
 * (rhythm.periods.ts), the level choice (rhythm.level.ts), beats (rhythm.beats.ts) and the
 * meter (rhythm.meter.ts). The beats are those tracked at the chosen level, and the tempo is
 * their mean steady interval (beatsTempo), so the timeline's beat grid and the tempo agree by
 * construction.
 */
export interface RhythmResult {
  tempo: number;
  /** The calibrated probability that the tempo is the one listeners tap (rhythm.level.ts, tempoConfidence). */
  tempoConfidence: number;
  /**
   * The chosen level's probability among the candidates, uncalibrated (the softmax over the level
   * scores): what the descriptor formulas and the sound embedding were fitted on.
   */
  levelProbability: number;
  /**
   * The runner-up levels (at most MAX_ALTERNATIVES, each at least MIN_ALTERNATIVE_PROBABILITY
   * likely), most probable first, each with its probability of being the tapped level: what the
   * calibrated tempoConfidence leaves, shared in the proportions of the level choice's softmax.
   */
  tempoAlternatives: { tempo: number; confidence: number }[];
  /** Beat times, seconds from the window's start. */
  beats: number[];
  beatConfidences: number[];
  downbeats: number[];
  timeSignature: number;
  timeSignatureConfidence: number;
  /** Onsets per second. */
  onsetRate: number;
  /**
   * How clearly the onsets repeat at a steady pulse: the onset envelope's autocorrelation at the
   * chosen beat period, 0-1 (speech ~0.1-0.2, music with drums 0.4-0.9).
   */
  pulseClarity: number;
  /** The candidate levels with their evidence (bench:tempo-levels fits the level weights on them). */
  levels: Level[];
}

/** Runner-up levels kept beside the choice. */
const MAX_ALTERNATIVES = 2;
/** A runner-up less likely than this is no alternative a listener would tap. */
const MIN_ALTERNATIVE_PROBABILITY = 0.01;

/**
 * A runner-up's probability of being the tapped level: the calibrated confidence takes the
 * winner's share, and the runner-ups share what is left in the proportions of the level choice's
 * own probabilities, so that the tempo and its alternatives sum to at most 1 as before.
 */
function alternativeConfidence(probability: number, winner: number, confidence: number): number {
  const rest = 1 - winner;
  return rest > 0 ? Math.round(((1 - confidence) * probability * 1000) / rest) / 1000 : 0;
}

/** An interval of the tracked beats further than this (share of the period) from the period is a skipped or an extra beat. */
const STEADY_INTERVAL = 0.15;
/** Fewer steady intervals than this and the level's own period is the tempo. */
const MIN_STEADY_INTERVALS = 4;

/**
 * The tempo the tracked beats keep: the mean of their intervals within STEADY_INTERVAL of the
 * level's period, in BPM (the level's own BPM when too few are). The level's period is the
 * autocorrelation's peak, which a band's drift or a swing's uneven notes can pull a few per cent
 * off the beats a listener taps; the beats themselves, tracked at it, follow the music, and their
 * mean interval is the tempo the timeline's beat grid shows (frame-exact beats, averaged over a
 * window's fifty or more intervals, give the tempo well under a per cent). Within the candidates'
 * range, MIN_BPM to MAX_BPM.
 */
export function beatsTempo(beats: readonly number[], period: number, fps: number): number {
  let sum = 0;
  let count = 0;
  for (let i = 1; i < beats.length; i++) {
    const interval = beats[i]! - beats[i - 1]!;
    if (Math.abs(interval / period - 1) >= STEADY_INTERVAL) continue;
    sum += interval;
    count++;
  }
  const bpm = (fps * 60) / (count >= MIN_STEADY_INTERVALS ? sum / count : period);
  return Math.min(MAX_BPM, Math.max(MIN_BPM, bpm));
}

/** Radius of the moving mean taken off the onset envelopes: 0.25 s, slower than any beat. */
const DETREND_SECONDS = 0.25;
/** Half-width of the windows whose chroma the chord-change curve compares. */
const CHORD_WINDOW_SECONDS = 0.7;
/** Lags of the autocorrelations: two bars of 4 beats and a beat beyond at the slowest candidate (40 BPM). */
const LONGEST_LAG_SECONDS = 13.5;

/** The envelope divided by its mean (all 0 when silent). */
function normalised(x: Float64Array): Float64Array {
  let m = 0;
  for (const v of x) m += v;
  m /= Math.max(1, x.length);
  return m > 0 ? x.map((v) => v / m) : new Float64Array(x.length);
}

/** The window's onset curves and autocorrelations, and its candidate levels with their evidence. */
function windowLevels(envelopes: OnsetEnvelopes, chroma: Chroma, tonality: number) {
  const { fps } = envelopes;
  const radius = Math.round(DETREND_SECONDS * fps);
  const low = detrend(envelopes.low, radius);
  const mid = detrend(envelopes.mid, radius);
  const high = detrend(envelopes.high, radius);
  // Each band counts alike, so the kick's few bins weigh as much as the cymbals' many.
  const lowN = normalised(low);
  const midN = normalised(mid);
  const highN = normalised(high);
  const onset = lowN.map((v, i) => v + midN[i]! + highN[i]!);
  const change = chordChange(chroma.frames, chroma.count, Math.round(CHORD_WINDOW_SECONDS * fps));
  const maxLag = Math.ceil(LONGEST_LAG_SECONDS * fps);
  const r = autocorrelation(onset, maxLag);
  const rLow = autocorrelation(low, maxLag);
  const rChords = autocorrelation(detrend(change, Math.round(fps)), maxLag);
  const body = lowN.map((v, i) => v + midN[i]!);
  const inputs = { fps, onset, high, body, tonality, rLow, rChords };
  return { fps, low, onset, change, r, rLow, rChords, levels: describeLevels(inputs, candidatePeriods(r, fps)) };
}

/** A block's levels less likely than this are left out of what it tells the track's level choice. */
const MIN_BLOCK_PROBABILITY = 0.01;

/**
 * The candidate tempi of a stretch of audio with their probabilities (the level choice's
 * softmax), most probable first, those under MIN_BLOCK_PROBABILITY left out: what one 30 s block
 * of a whole track tells the track's level choice (track.whole.ts, `chooseWithTrack`).
 */
export function tempoCandidates(envelopes: OnsetEnvelopes, chroma: Chroma, tonality: number): TempoCandidate[] {
  return rankLevels(windowLevels(envelopes, chroma, tonality).levels)
    .filter((r) => r.probability >= MIN_BLOCK_PROBABILITY)
    .map((r) => ({ bpm: Math.round(r.level.bpm * 100) / 100, probability: Math.round(r.probability * 1000) / 1000 }));
}

/**
 * The rhythm of a window from its onset envelopes and chroma. `tonality` is the key stage's
 * (tonal.ts: how clearly the window's chroma names a key, 0-1), which tells the level choice how
 * far the chord changes can be believed. `track`, for a window that is part of a longer file, is
 * what every 30 s block of the file says of the tempo (`tempoCandidates`): the level is then
 * chosen among the window's candidates by the whole track's evidence (`chooseWithTrack`), and
 * the beats, the meter and the tempo are the window's at that level.
 */
export function analyseRhythm(envelopes: OnsetEnvelopes, chroma: Chroma, tonality: number, track?: readonly (readonly TempoCandidate[])[]): RhythmResult {
  const { fps, low, onset, change, r, rLow, rChords, levels } = windowLevels(envelopes, chroma, tonality);
  const rate = onsetRate(onset, fps);
  const ranked = track && track.length > 0 ? chooseWithTrack(rankLevels(levels), track) : rankLevels(levels);
  const choice = ranked[0];
  // The timeline's beats: tracked again at the chosen period by the tracker's own tightness, so
  // that they follow a band's drift where the level's evidence was read on a steadier grid.
  const tracked = choice ? trackBeats(onset, choice.level.period) : [];
  if (!choice || tracked.length < 2) {
    return {
      tempo: 0, tempoConfidence: 0, levelProbability: 0, tempoAlternatives: [], beats: [], beatConfidences: [], downbeats: [], timeSignature: 4,
      timeSignatureConfidence: 0, onsetRate: rate, pulseClarity: 0, levels,
    };
  }
  const { level } = choice;
  const confidence = tempoConfidence(ranked);
  const meter = measureMeter({ period: level.period, beats: tracked, r, rLow, rChords, low, chordChange: change });
  const strengths = tracked.map((b) => Math.max(onset[b - 1] ?? 0, onset[b]!, onset[b + 1] ?? 0));
  const reference = [...strengths].sort((a, b) => a - b)[Math.floor(strengths.length * 0.9)] || 1;
  const beats = tracked.map((b) => b / fps);
  return {
    tempo: Math.round(beatsTempo(tracked, level.period, fps) * 10) / 10,
    tempoConfidence: confidence,
    levelProbability: choice.probability,
    tempoAlternatives: ranked
      .slice(1, 1 + MAX_ALTERNATIVES)
      .map((r) => ({ tempo: Math.round(r.level.bpm * 10) / 10, confidence: alternativeConfidence(r.probability, choice.probability, confidence) }))
      .filter((a) => a.confidence >= MIN_ALTERNATIVE_PROBABILITY),
    beats,
    beatConfidences: strengths.map((s) => Math.min(1, s / reference)),
    downbeats: beats.filter((_, i) => i >= meter.phase && (i - meter.phase) % meter.beatsPerBar === 0),
    timeSignature: meter.beatsPerBar,
    timeSignatureConfidence: meter.confidence,
    onsetRate: rate,
    pulseClarity: Math.max(0, Math.min(1, sampleAt(r, level.period))),
    levels,
  };
}
