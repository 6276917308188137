import { type RhythmResult, beatsTempo } from '../../../src/engine/rhythm';
import { trackBeats } from '../../../src/engine/rhythm.beats';
import { LEVEL_FEATURES, type Level, TEMPO_CALIBRATION, chooseWithTrack, describeLevel, rankLevels, tempoCalibrationInputs, tempoConfidence } from '../../../src/engine/rhythm.level';
import { MAX_BPM, MIN_BPM, autocorrelation, candidatePeriods, refinePeak } from '../../../src/engine/rhythm.periods';
import { rhythmOf } from '../../helpers/engine-run';
import { type DrumHit, SAMPLE_RATE, clickTrack, drumMachine, drumPattern } from '../../../measure/audio/signals';

// Local bindings: under Jest's vm sandbox a global lookup per sample is several times slower.
const { PI, abs, exp, min, round, sin } = Math;

const analyseRhythm = (signal: Float32Array): RhythmResult => rhythmOf(signal);
const within = (value: number, truth: number, tolerance = 0.04) => abs(value - truth) <= tolerance * truth;

function expectWellFormed(result: RhythmResult, seconds: number): void {
  expect(result.beats.length).toBe(result.beatConfidences.length);
  for (let i = 1; i < result.beats.length; i++) expect(result.beats[i]!).toBeGreaterThan(result.beats[i - 1]!);
  for (const t of result.beats) {
    expect(t).toBeGreaterThanOrEqual(0);
    expect(t).toBeLessThanOrEqual(seconds);
  }
  for (const c of [result.tempoConfidence, result.timeSignatureConfidence, result.pulseClarity, ...result.beatConfidences]) {
    expect(c).toBeGreaterThanOrEqual(0);
    expect(c).toBeLessThanOrEqual(1);
  }
  for (const d of result.downbeats) expect(result.beats).toContain(d);
  expect(result.onsetRate).toBeGreaterThan(0);
  // The beat grid and the tempo agree: the median beat interval is the tempo's period.
  const gaps = result.beats.slice(1).map((t, i) => t - result.beats[i]!).sort((a, b) => a - b);
  expect(within(60 / gaps[gaps.length >> 1]!, result.tempo)).toBe(true);
}

/**
 * A song without drums: a chord per bar (I-vi-IV-V) over a plucked bass, either on every beat
 * (root, fifth) or in eighths on the root with the beats accented.
 */
function drumlessSong(bpm: number, beatsPerBar: number, seconds: number, bass: 'beats' | 'eighths' = 'beats'): Float32Array {
  const out = new Float32Array(round(seconds * SAMPLE_RATE));
  const beat = 60 / bpm;
  const roots = [48, 45, 41, 43]; // C3, A2, F2, G2 (MIDI)
  const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
  const note = (start: number, dur: number, midi: number, gain: number, decay: number) => {
    const f = hz(midi);
    const s0 = round(start * SAMPLE_RATE);
    const n = min(out.length - s0, round(dur * SAMPLE_RATE));
    for (let i = 0; i < n; i++) {
      const t = i / SAMPLE_RATE;
      const env = min(1, t / 0.01) * exp(-t / decay);
      out[s0 + i]! += gain * env * (sin(2 * PI * f * t) + 0.5 * sin(4 * PI * f * t) + 0.25 * sin(6 * PI * f * t));
    }
  };
  for (let bar = 0; bar * beatsPerBar * beat < seconds; bar++) {
    const t0 = bar * beatsPerBar * beat;
    const root = roots[bar % roots.length]!;
    const minor = bar % 4 === 1;
    for (const iv of [12, minor ? 15 : 16, 19]) note(t0, beatsPerBar * beat * 0.98, root + 12 + iv, 0.08, 1.5);
    if (bass === 'beats') {
      for (let b = 0; b < beatsPerBar; b++) note(t0 + b * beat, beat * 0.9, b % 2 === 0 ? root : root + 7, 0.3, 0.25);
    } else {
      for (let e = 0; e < beatsPerBar * 2; e++) note(t0 + (e * beat) / 2, beat * 0.45, root, e % 2 === 0 ? 0.3 : 0.22, 0.2);
    }
  }
  return out;
}

describe('analyseRhythm', () => {
  describe.each([70, 120, 170])('when a 4/4 drum groove plays at %d BPM', (bpm) => {
    const seconds = 12;
    const result = analyseRhythm(drumPattern({ bpm, seconds, beatsPerBar: 4, seed: bpm }));

    it('then the tempo is the tapped level, not half or double', () => {
      expect(within(result.tempo, bpm)).toBe(true);
    });

    it('then the beats are one beat period apart and the result is well formed', () => {
      expectWellFormed(result, seconds);
      const gaps = result.beats.slice(1).map((t, i) => t - result.beats[i]!);
      const median = [...gaps].sort((a, b) => a - b)[gaps.length >> 1]!;
      expect(within(median, 60 / bpm, 0.05)).toBe(true);
    });

    it('then the bar has four beats and starts on the kick', () => {
      expect(result.timeSignature).toBe(4);
      const beatPeriod = 60 / bpm;
      // The kick (bar start) falls on beats 0, 4, 8... of the pattern.
      for (const d of result.downbeats) {
        const beatIndex = round(d / beatPeriod);
        expect(beatIndex % 4).toBe(0);
      }
    });
  });

  describe.each([90, 150])('when a 3/4 groove plays at %d BPM', (bpm) => {
    const result = analyseRhythm(drumPattern({ bpm, seconds: 12, beatsPerBar: 3, seed: 3 }));

    it('then the time signature is 3 at the right tempo', () => {
      expect(within(result.tempo, bpm)).toBe(true);
      expect(result.timeSignature).toBe(3);
    });
  });

  describe.each([70, 95, 120])('when an isochronous click track plays at %d BPM', (bpm) => {
    it('then the tempo is the click rate, not its double', () => {
      const result = analyseRhythm(clickTrack({ bpm, seconds: 12 }));
      expect(within(result.tempo, bpm)).toBe(true);
      expectWellFormed(result, 12);
    });
  });

  describe.each([
    [75, 4],
    [110, 4],
    [165, 4],
    [100, 3],
  ])('when a song without drums (bass on every beat, a chord per bar) plays at %d BPM in %d/4', (bpm, beatsPerBar) => {
    const result = analyseRhythm(drumlessSong(bpm, beatsPerBar, 16));

    it('then the tempo is the beat the bass plays, not half or double', () => {
      expect(within(result.tempo, bpm)).toBe(true);
    });
  });

  describe.each([70, 84])('when a slow song without drums plays its bass in eighths under a chord per bar at %d BPM', (bpm) => {
    const result = analyseRhythm(drumlessSong(bpm, 4, 16, 'eighths'));

    it('then the tempo is the beat the chords change on every four of, not the eighths', () => {
      // Every eighth carries a bass onset, so the onsets alone repeat as well at twice the tempo;
      // the harmonic rhythm (a new chord every 4 beats, not every 8) tells the levels apart.
      expect(within(result.tempo, bpm)).toBe(true);
    });
  });

  describe('when a drum machine plays a clave figure on a tom over kick on 1 and 3 and snare on 2 and 4 at 125 BPM', () => {
    // Sixteenth steps of a 4/4 bar (48 ticks per beat, 12 per step). The clave's 3+3 opening
    // makes the strongest periodicity the dotted beat (83.3 BPM), whose ladder of multiples and
    // fractions never reaches the beat; engine 3 read 83.3.
    const step = (voice: DrumHit[1], velocity: number, steps: number[]) => steps.map((s) => [s * 12, voice, velocity] as DrumHit);
    const bar = [
      ...step({ hz: 200 }, 0.8, [0, 3, 6, 10, 12]),
      ...step('kick', 0.8, [0, 8]),
      ...step('snare', 0.8, [4, 12]),
      ...step('hat', 0.3, [2, 6, 10, 14]),
    ];
    const result = analyseRhythm(drumMachine({ bpm: 125, seconds: 16, ticksPerBeat: 48, bar }));

    it('then the tempo is the backbeat\'s beat, not the dotted beat two thirds of it', () => {
      expect(within(result.tempo, 125)).toBe(true);
    });
  });

  describe.each([90, 100, 110])('when a drum machine plays a syncopated groove with ghost snares at %d BPM', (bpm) => {
    // Kick on 1 and the "and" of 3, snare on 2 and 4, ghost snares a sixteenth before 3 and 1,
    // hats on the eighths. The strong hits lie 4 and 6 sixteenths apart; a tracker allowed to
    // stretch hops between them at a period of 5 and read the beat at 4:5 (72 for 90, 80 for 100).
    const step = (voice: DrumHit[1], velocity: number, steps: number[]) => steps.map((s) => [s * 12, voice, velocity] as DrumHit);
    const bar = [
      ...step('kick', 1, [0, 10]),
      ...step('snare', 0.9, [4, 12]),
      ...step('snare', 0.3, [7, 15]),
      ...step('hat', 0.8, [0, 2, 4, 6, 8, 10, 12, 14]),
    ];
    const result = analyseRhythm(drumMachine({ bpm, seconds: 16, ticksPerBeat: 48, bar, seed: bpm }));

    it('then the tempo is the beat, not 4:5 of it, and the beat grid agrees', () => {
      expect(within(result.tempo, bpm)).toBe(true);
      expectWellFormed(result, 16);
    });
  });

  it('when the same samples are analysed twice, then the results are identical', () => {
    const signal = drumPattern({ bpm: 133, seconds: 8, beatsPerBar: 4, seed: 9 });
    expect(analyseRhythm(signal)).toEqual(analyseRhythm(Float32Array.from(signal)));
  });

  it('when the signal is silent, then there is no tempo and no beat, and nothing throws', () => {
    const result = analyseRhythm(new Float32Array(SAMPLE_RATE * 5));
    expect(result.beats.length).toBe(result.beatConfidences.length);
    expect(result.tempoConfidence).toBeGreaterThanOrEqual(0);
    expect(result.tempoConfidence).toBeLessThanOrEqual(1);
    expect(result.onsetRate).toBe(0);
    expect(result.pulseClarity).toBe(0);
  });

});

describe('the tempo confidence (a calibrated probability that the tempo is the tapped one)', () => {
  const level = (bpm: number): Level => ({ bpm, period: 60, beats: [], preference: 0, features: [] });
  const ranked = (bpm: number, p1: number, p2: number) => [
    { level: level(bpm), probability: p1 },
    { level: level(bpm / 2), probability: p2 },
  ];

  it('when the levels are ranked, then the calibration reads the winner\'s log odds, its lead and its distance from 120 BPM', () => {
    const inputs = tempoCalibrationInputs(ranked(240, 0.8, 0.2));
    expect(inputs.logit).toBeCloseTo(Math.log(4), 6);
    expect(inputs.margin).toBeCloseTo(Math.log(4), 6);
    expect(inputs.distance).toBeCloseTo(1, 9);
    expect(tempoCalibrationInputs(ranked(60, 0.8, 0.2)).distance).toBeCloseTo(1, 9);
  });

  it('when the calibration is the identity on the log odds, then the confidence is the level\'s own probability', () => {
    const identity = { bias: 0, weights: { logit: 1, margin: 0, distance: 0 } };
    expect(tempoConfidence(ranked(120, 0.73, 0.2), identity)).toBeCloseTo(0.73, 6);
    expect(tempoConfidence([], identity)).toBe(0);
  });

  it('with the fitted calibration, a sure choice near 120 BPM is more likely right than a narrow one, and every confidence lies in (0, 1)', () => {
    const sure = tempoConfidence(ranked(120, 0.95, 0.03));
    const narrow = tempoConfidence(ranked(120, 0.45, 0.4));
    expect(sure).toBeGreaterThan(narrow);
    for (const c of [sure, narrow, tempoConfidence(ranked(200, 0.6, 0.3))]) {
      expect(c).toBeGreaterThan(0);
      expect(c).toBeLessThan(1);
    }
    expect(TEMPO_CALIBRATION.weights.logit + TEMPO_CALIBRATION.weights.margin).toBeGreaterThan(0);
  });

  it('when a groove is analysed, then its tempo confidence is the calibration of its ranked levels and its level probability their softmax winner', () => {
    const result = analyseRhythm(drumPattern({ bpm: 120, seconds: 12, beatsPerBar: 4, seed: 7 }));
    const levels = rankLevels(result.levels);
    expect(result.levelProbability).toBe(levels[0]!.probability);
    expect(result.tempoConfidence).toBe(tempoConfidence(levels));
    // The runner-ups share what the calibrated confidence leaves, in the softmax's proportions.
    for (const [i, alternative] of result.tempoAlternatives.entries()) {
      const share = ((1 - result.tempoConfidence) * levels[i + 1]!.probability) / (1 - levels[0]!.probability);
      expect(alternative.confidence).toBeCloseTo(share, 3);
    }
    expect(result.tempoConfidence + result.tempoAlternatives.reduce((s, a) => s + a.confidence, 0)).toBeLessThanOrEqual(1.001);
  });
});

describe('candidate periods', () => {
  it('when a click track plays at 100 BPM, then its period, its double and half, and its 3:2 relatives are all candidates', () => {
    // The level choice must see every level it could be asked to reject.
    const fps = 22050 / 512;
    const period = (fps * 60) / 100;
    const o = new Float64Array(1300);
    for (let t = 0; t < o.length; t += period) o[round(t)] = 1;
    const periods = candidatePeriods(autocorrelation(o, 260), fps);
    for (const ratio of [1, 2, 1 / 2, 3 / 2, 2 / 3]) {
      expect(periods.some((p) => abs(p / (period * ratio) - 1) < 0.03)).toBe(true);
    }
  });

  it('when a click track plays at 56 BPM, then its double and triple are candidates but nothing above MAX_BPM, so it cannot be read at four times', () => {
    const fps = 22050 / 512;
    const period = (fps * 60) / 56;
    const o = new Float64Array(1300);
    for (let t = 0; t < o.length; t += period / 2) o[round(t)] = t % period < 1 ? 1 : 0.6;
    const bpms = candidatePeriods(autocorrelation(o, 520), fps).map((p) => (fps * 60) / p);
    expect(bpms.every((bpm) => bpm >= MIN_BPM && bpm <= MAX_BPM)).toBe(true);
    for (const multiple of [1, 2, 3]) expect(bpms.some((bpm) => abs(bpm / (56 * multiple) - 1) < 0.03)).toBe(true);
    expect(bpms.some((bpm) => abs(bpm / (56 * 4) - 1) < 0.03)).toBe(false);
  });
});

describe('level evidence: the body gap', () => {
  // A drum machine's envelopes at 99.4 BPM (26 frames a beat): kick and snare take turns on the
  // beats (below 2 kHz), a hat on every eighth (above). At the eighths' level every other "beat"
  // has no body: the onsets below 2 kHz alternate far more than all the onsets do.
  const fps = 22050 / 512;
  const beat = 26;
  const n = 1300;
  const body = new Float64Array(n);
  const high = new Float64Array(n);
  for (let t = 0; t < n; t += beat) body[t] = (t / beat) % 2 === 0 ? 1 : 0.8;
  for (let t = 0; t < n; t += beat / 2) high[t] = 0.6;
  const onset = body.map((v, i) => v + high[i]!);
  const inputs = { fps, onset, high, body, tonality: 0, rLow: autocorrelation(body, 600), rChords: new Float64Array(601) };
  const gapAt = (period: number) => describeLevel(inputs, period).features[LEVEL_FEATURES.indexOf('bodyGap')]!;

  it('when the level is the beat, then kick and snare both have body and the gap is near 0', () => {
    expect(abs(gapAt(beat))).toBeLessThan(0.1);
  });

  it('when the level is the eighths, then the gap is clearly negative', () => {
    expect(gapAt(beat / 2)).toBeLessThan(-0.5);
  });

  it('when the hats are taken away, then the eighths have no gap to show: all onsets alternate as the body does', () => {
    const bare = { ...inputs, onset: body, high: new Float64Array(n) };
    expect(abs(describeLevel(bare, beat / 2).features[LEVEL_FEATURES.indexOf('bodyGap')]!)).toBeLessThan(0.05);
  });
});

describe('beat tracking (dynamic programming)', () => {
  it('when onsets come every 20 frames with one missing and one displaced by 2 frames, then the beats follow them', () => {
    const o = new Float64Array(400);
    for (let t = 10; t < 400; t += 20) if (t !== 190) o[t === 250 ? 252 : t] = 1;
    const beats = trackBeats(o, 20);
    expect(beats).toContain(170);
    expect(beats).toContain(252);
    // The missing onset is bridged at the period, not skipped.
    expect(beats.some((b) => abs(b - 190) <= 2)).toBe(true);
    for (let i = 1; i < beats.length; i++) expect(beats[i]! - beats[i - 1]!).toBeGreaterThanOrEqual(15);
  });
});

describe('the level chosen with the whole track (chooseWithTrack)', () => {
  const level = (bpm: number): Level => ({ bpm, period: (43 * 60) / bpm, beats: [], preference: 0, features: [] });
  const ranked = [
    { level: level(200), probability: 0.6 },
    { level: level(100), probability: 0.3 },
    { level: level(50), probability: 0.1 },
  ];

  it('when the blocks around the window favour its runner-up, then the runner-up wins and the probabilities still sum to 1', () => {
    const blocks = [[{ bpm: 101, probability: 0.8 }, { bpm: 198, probability: 0.2 }], [{ bpm: 99.5, probability: 0.9 }]];
    const chosen = chooseWithTrack(ranked, blocks);
    expect(chosen.map((r) => r.level.bpm)).toEqual([100, 200, 50]);
    // 0.3 + 0.8 + 0.9 against 0.6 + 0.2 and 0.1, over their sum 2.9.
    expect(chosen[0]!.probability).toBeCloseTo(2 / 2.9, 6);
    expect(chosen.reduce((s, r) => s + r.probability, 0)).toBeCloseTo(1, 9);
  });

  it('when a block names a tempo none of the window\'s levels is within 4 % of, then it changes nothing', () => {
    const chosen = chooseWithTrack(ranked, [[{ bpm: 77, probability: 1 }], [{ bpm: 105, probability: 1 }]]);
    expect(chosen.map((r) => r.level.bpm)).toEqual([200, 100, 50]);
    chosen.forEach((r, i) => expect(r.probability).toBeCloseTo(ranked[i]!.probability, 12));
  });

  it('when a groove\'s window is given blocks that hear its half, then the tempo, beats and confidence are read at the half', () => {
    const signal = drumPattern({ bpm: 100, seconds: 16, beatsPerBar: 4, seed: 3 });
    const alone = rhythmOf(signal);
    const half = rhythmOf(signal, Array.from({ length: 6 }, () => [{ bpm: 50, probability: 0.95 }]));
    expect(within(alone.tempo, 100)).toBe(true);
    expect(within(half.tempo, 50)).toBe(true);
    expect(half.beats.length).toBeLessThan(alone.beats.length * 0.6);
    expect(half.levelProbability).toBeGreaterThan(0.5);
    expect(half.tempoAlternatives.map((a) => Math.round(a.tempo / 10) * 10)).toContain(100);
  });
});

describe('beatsTempo (the tempo the tracked beats keep)', () => {
  const FPS = 43;

  it('when the beats alternate 19 and 20 frames apart around a period read as 18.9, then the tempo is their mean interval, not the period', () => {
    const beats = Array.from({ length: 41 }, (_, i) => 10 + Math.floor(i * 19.5));
    expect(beatsTempo(beats, 18.9, FPS)).toBeCloseTo((FPS * 60) / 19.5, 1);
  });

  it('when a beat is skipped and one is doubled, then those two intervals are left out of the mean', () => {
    const steady = Array.from({ length: 30 }, (_, i) => 20 * i);
    const beats = [...steady.filter((b) => b !== 200), 305].sort((a, b) => a - b);
    expect(beatsTempo(beats, 20, FPS)).toBeCloseTo((FPS * 60) / 20, 6);
  });

  it('when fewer than four intervals are steady, then the level\'s own period is the tempo', () => {
    expect(beatsTempo([0, 21, 42, 90], 20, FPS)).toBeCloseTo((FPS * 60) / 20, 6);
    expect(beatsTempo([], 20, FPS)).toBeCloseTo((FPS * 60) / 20, 6);
  });
});

describe('refinePeak (a candidate period refined on the autocorrelation)', () => {
  /** An autocorrelation curve of `n` lags with Gaussian peaks at the given lags. */
  const curve = (n: number, peaks: ReadonlyArray<[lag: number, height: number, width: number]>) =>
    Float64Array.from({ length: n }, (_, l) => peaks.reduce((s, [at, h, w]) => s + h * exp(-(((l - at) / w) ** 2)), 0));

  it('when a peak lies within 3 % of the lag asked for, then its interpolated position is returned', () => {
    const r = curve(200, [[51.3, 1, 2]]);
    expect(refinePeak(r, 50)).toBeCloseTo(51.3, 0);
  });

  it('when the only nearby peak lies 5 % away, then the lag asked for stands', () => {
    // 156.5 BPM's lag with the envelope's strongest repetition 5 % longer: that is not this pulse.
    const r = curve(200, [[52.5, 1, 1.5]]);
    expect(refinePeak(r, 50)).toBe(50);
  });
});
