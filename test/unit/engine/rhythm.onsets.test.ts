import { chordChange, detrend, onsetEnvelopes, onsetRate, type OnsetEnvelopes } from '../../../src/engine/rhythm.onsets';
import { framesOf } from '../../helpers/engine-run';
import { type DrumHit, SAMPLE_RATE, chordProgression, clickTrack, drumMachine } from '../../../measure/audio/signals';

const envelopesOf = (signal: Float32Array): OnsetEnvelopes => onsetEnvelopes(framesOf(signal).spec);
const total = (x: Float64Array): number => x.reduce((s, v) => s + v, 0);

/** Frames of the envelope's local maxima above `fraction` of its largest value. */
function peaks(x: Float64Array, fraction: number): number[] {
  const top = Math.max(...x);
  const out: number[] = [];
  for (let i = 1; i + 1 < x.length; i++) if (x[i]! > fraction * top && x[i]! >= x[i - 1]! && x[i]! > x[i + 1]!) out.push(i);
  return out;
}

/** A drum machine bar at 120 BPM (48 ticks per beat) playing `voice` on the given ticks. */
const oneVoice = (voice: DrumHit[1], ticks: number[]) => drumMachine({ bpm: 120, seconds: 8, ticksPerBeat: 48, bar: ticks.map((t) => [t, voice, 1] as DrumHit) });

describe('onset envelopes', () => {
  // Each range's flux summed over the window, for one voice playing on every beat.
  const kick = envelopesOf(oneVoice('kick', [0, 48, 96, 144]));
  const hat = envelopesOf(oneVoice('hat', [0, 48, 96, 144]));
  const tom = envelopesOf(oneVoice({ hz: 400 }, [0, 48, 96, 144]));

  it('when clicks play at 120 BPM, then the envelope peaks on every click and nowhere else', () => {
    const clicks = envelopesOf(clickTrack({ bpm: 120, seconds: 8 }));
    // A click every 0.5 s; the first, at frame 0, has no frame before it to change from.
    const hits = Array.from({ length: 15 }, (_, i) => (i + 1) * 0.5 * clicks.fps);
    const found = peaks(clicks.all, 0.3);
    expect(found).toHaveLength(hits.length);
    found.forEach((f, i) => expect(Math.abs(f - hits[i]!)).toBeLessThanOrEqual(2));
  });

  it('when a kick and a hi-hat each play alone, then the band below 150 Hz tells them apart and the hat lives above 2 kHz', () => {
    expect(total(kick.low)).toBeGreaterThan(10 * total(hat.low));
    const highOverLow = (e: OnsetEnvelopes) => total(e.high) / total(e.low);
    expect(highOverLow(hat)).toBeGreaterThan(10);
    expect(highOverLow(hat)).toBeGreaterThan(10 * highOverLow(kick));
  });

  it('when a pitched tom at 400 Hz plays alone, then its flux is in the middle band, more than twice the hat\'s there', () => {
    expect(total(tom.mid)).toBeGreaterThan(total(tom.low) + total(tom.high));
    expect(total(tom.mid)).toBeGreaterThan(2 * total(hat.mid));
    expect(total(tom.low)).toBeLessThan(total(kick.low));
  });

  it('when the signal is silent, then every envelope is zero', () => {
    const env = envelopesOf(new Float32Array(SAMPLE_RATE * 3));
    for (const x of [env.all, env.low, env.mid, env.high]) expect(x.every((v) => v === 0)).toBe(true);
  });
});

describe('onset rate', () => {
  it.each([[60, 1], [120, 2], [240, 4]])('when clicks play at %d BPM, then the onsets per second are %d', (bpm, perSecond) => {
    const env = envelopesOf(clickTrack({ bpm, seconds: 12 }));
    expect(Math.abs(onsetRate(env.all, env.fps) - perSecond)).toBeLessThan(0.1 * perSecond);
  });

  it('when the envelope is flat, then there are no onsets', () => {
    expect(onsetRate(new Float64Array(500).fill(1), 43)).toBe(0);
  });
});

describe('detrend', () => {
  it('when spikes ride on a slow swell, then the swell is taken away and the spikes stay', () => {
    const x = Float64Array.from({ length: 400 }, (_, i) => 2 + i / 100 + (i % 50 === 25 ? 1 : 0));
    const y = detrend(x, 10);
    for (let i = 10; i < 390; i++) {
      if (i % 50 === 25) expect(y[i]).toBeGreaterThan(0.9);
      else expect(y[i]).toBeLessThan(0.06);
    }
  });
});

describe('chord changes', () => {
  it('when the chord changes every bar, then the curve peaks at the bar lines and stays low inside bars', () => {
    // Four beats at 120 BPM: a bar of 2 s, each chord struck on every beat of its bar.
    const { chroma } = framesOf(chordProgression({ tonic: 0, mode: 'major', seconds: 12, bpm: 120 }));
    const fps = SAMPLE_RATE / 2 / 512;
    const change = chordChange(chroma.frames, chroma.count, Math.round(0.7 * fps));
    const near = (t: number) => Math.max(...change.subarray(Math.round(t * fps) - 3, Math.round(t * fps) + 4));
    // Bar lines at 2, 4, 6, 8, 10 s (I-IV-V-I-I-IV: the line at 8 s holds I on both sides).
    for (const t of [2, 4, 6, 10]) {
      expect(near(t)).toBeGreaterThan(0.3);
      // Halfway through the bar before it, the same chord lies on both sides.
      expect(near(t - 1)).toBeLessThan(near(t) / 3);
    }
    expect(near(8)).toBeLessThan(near(6) / 3);
  });
});
