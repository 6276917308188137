import { sampleAt } from './rhythm.periods';

/**
 * Bar length and the bar's first beat.
 *
 * Beats per bar: the music repeats once a bar, so the onsets, the low band (kick and bass) and
 * the chord changes are each more alike one and two bars apart: at 3 and 6 beats in 3/4, at 4
 * and 8 in 4/4. Every whole number of beats is a repeat of the beat too, and the autocorrelation
 * falls with the lag (a band drifts, parts vary), so a bar's lag counts by how far it
 * stands above the lags a beat either side of it: its contrast. The summed contrast of the three
 * autocorrelations at one and two bars of 3 beats against that of 4 beats decides (two bars as
 * well as one: a syncopated figure of 3 + 3 + 2 eighths repeats at three beats too, but not at
 * six); the confidence is how far apart the two are, against the repeat at one beat.
 * First beat: the bar's first beat carries the kick and the chord change, so of the 3 or 4
 * phases the one whose beats have the most low-band onset and chord change on them wins.
 */
export interface Meter {
  beatsPerBar: 3 | 4;
  /** Index of the first tracked beat that starts a bar. */
  phase: number;
  confidence: number;
}

export interface MeterInputs {
  period: number;
  beats: readonly number[];
  r: Float64Array;
  rLow: Float64Array;
  rChords: Float64Array;
  low: Float64Array;
  chordChange: Float64Array;
}

function peakNear(x: Float64Array, t: number): number {
  const i = Math.round(t);
  return Math.max(x[i - 1] ?? 0, x[i] ?? 0, x[i + 1] ?? 0);
}

/** Values standardised to mean 0, standard deviation 1 (all 0 when constant). */
function standardise(values: number[]): number[] {
  const m = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, values.length));
  return values.map((v) => (sd > 0 ? (v - m) / sd : 0));
}

export function measureMeter(inputs: MeterInputs): Meter {
  const { period, beats, r, rLow, rChords } = inputs;
  const at = (beats: number) => sampleAt(r, beats * period) + sampleAt(rLow, beats * period) + sampleAt(rChords, beats * period);
  const contrast = (beats: number) => at(beats) - (at(beats - 1) + at(beats + 1)) / 2;
  const repeat = (m: number) => contrast(m) + contrast(2 * m);
  const three = repeat(3);
  const four = repeat(4);
  const beatsPerBar: 3 | 4 = three > four ? 3 : 4;
  const beat = at(1);
  const confidence = beat > 0 ? Math.min(1, Math.abs(four - three) / beat) : 0;
  if (beats.length < 2 * beatsPerBar) return { beatsPerBar, phase: 0, confidence };
  const low = standardise(beats.map((b) => peakNear(inputs.low, b)));
  const change = standardise(beats.map((b) => peakNear(inputs.chordChange, b)));
  let phase = 0;
  let best = -Infinity;
  for (let p = 0; p < beatsPerBar; p++) {
    let on = 0;
    let n = 0;
    for (let i = p; i < beats.length; i += beatsPerBar) {
      on += low[i]! + change[i]!;
      n++;
    }
    if (on / n > best) {
      best = on / n;
      phase = p;
    }
  }
  return { beatsPerBar, phase, confidence };
}
