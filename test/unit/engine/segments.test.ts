import type { Segment } from '../../../src/core/types';
import { analyse } from '../../helpers/engine-run';
import { clickTrack, drumMachine } from '../../../measure/audio/signals';

/** The segment that starts nearest to `t` (seconds). */
const nearest = (segments: readonly Segment[], t: number): Segment =>
  segments.reduce((best, s) => (Math.abs(s.start - t) < Math.abs(best.start - t) ? s : best));

const strongest = (v: readonly number[]): number => v.indexOf(Math.max(...v));

describe('segments (the engine’s, on generated signals)', () => {
  it('start at every click of a click track and tile the window from its start to its end', () => {
    const seconds = 12;
    const features = analyse(clickTrack({ bpm: 120, seconds }));
    const segments = features.timeline.segments!;
    // 24 clicks, the first at 0 (the first segment's start).
    expect(segments).toHaveLength(24);
    segments.forEach((s, i) => {
      expect(Math.abs(s.start - i * 0.5)).toBeLessThan(0.06);
      const next = segments[i + 1];
      expect(s.start + s.duration).toBeCloseTo(next ? next.start : seconds, 1);
    });
    // An onset starts all but the first (which starts at the window's start, not at a detected onset).
    for (const s of segments.slice(1)) expect(s.confidence).toBeGreaterThan(0.5);
    // The loudest moment is the click, at the segment's start; the silence after it is at the floor.
    for (const s of segments.slice(1)) {
      expect(s.loudnessMaxTime).toBeLessThan(0.07);
      expect(s.loudnessMax).toBeGreaterThan(s.loudnessEnd + 30);
      expect(s.loudnessEnd).toBe(-60);
    }
  });

  it('name the note each segment holds in its pitches and tell a kick from a hat by their timbre', () => {
    // One 4/4 bar at 60 BPM, over and over: A4, C4, a hi-hat, a kick, a second apart.
    const bar = [[0, { hz: 440 }, 1], [1, { hz: 261.63 }, 1], [2, 'hat', 1], [3, 'kick', 1]] as const;
    const features = analyse(drumMachine({ bpm: 60, seconds: 12, ticksPerBeat: 1, bar }));
    const segments = features.timeline.segments!;
    for (const s of segments) {
      expect(s.pitches).toHaveLength(12);
      expect(s.timbre).toHaveLength(12);
      const top = Math.max(...s.pitches);
      expect(top === 1 || top === 0).toBe(true);
    }
    for (const barStart of [4, 8]) {
      expect(strongest(nearest(segments, barStart).pitches)).toBe(9); // A
      expect(strongest(nearest(segments, barStart + 1).pitches)).toBe(0); // C
      const hat = nearest(segments, barStart + 2).timbre;
      const kick = nearest(segments, barStart + 3).timbre;
      // The second coefficient weighs the low bands against the high ones: the kick's energy is low, the hat's high.
      expect(kick[1]!).toBeGreaterThan(hat[1]! + 5);
    }
  });

  it('are one segment at the floor for silence', () => {
    const segments = analyse(new Float32Array(44100 * 8)).timeline.segments!;
    expect(segments).toHaveLength(1);
    expect(segments[0]).toMatchObject({ start: 0, confidence: 0, loudnessMax: -60 });
    expect(segments[0]!.pitches).toEqual(new Array(12).fill(0));
  });
});

describe('tempo alternatives (the level choice’s runner-ups)', () => {
  it.each([
    ['a click track at 120 BPM', clickTrack({ bpm: 120, seconds: 20, beatsPerBar: 4 })],
    ['a click track at 90 BPM', clickTrack({ bpm: 90, seconds: 20, beatsPerBar: 4 })],
  ])('of %s: the runner-up is the half or the double of the tempo, less probable than it', (_name, signal) => {
    const features = analyse(signal);
    const [runnerUp] = features.tempoAlternatives!;
    expect(runnerUp).toBeDefined();
    const ratio = runnerUp!.tempo / features.tempo;
    expect(Math.min(Math.abs(ratio - 0.5), Math.abs(ratio - 2))).toBeLessThan(0.03);
    expect(runnerUp!.confidence).toBeGreaterThan(0.05);
    expect(runnerUp!.confidence).toBeLessThan(features.confidence.tempo);
    // Probabilities of one softmax: the choice and its runner-ups sum to at most 1.
    const total = features.confidence.tempo + features.tempoAlternatives!.reduce((s, a) => s + a.confidence, 0);
    expect(total).toBeLessThanOrEqual(1.001);
  });
});
