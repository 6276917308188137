import { Essentia, EssentiaWASM } from 'essentia.js';
import { LoudnessMeter, integratedLoudness } from '../../../src/engine/loudness';
import { RATE, song } from '../../../measure/audio/audio-signals';

function sine(seconds: number, hz: number, amplitude: number, rate = RATE): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
}

function measure(channels: Float32Array[], rate = RATE, chunk = 4096): number {
  const meter = new LoudnessMeter(rate);
  for (let i = 0; i < channels[0]!.length; i += chunk) meter.push(channels.map((c) => c.subarray(i, i + chunk)));
  return integratedLoudness(meter.subBlockPowers());
}

describe('loudness (BS.1770 / EBU R128)', () => {
  it('when a full-scale 997 Hz sine is on one channel, then it reads -3.01 LUFS (the standard’s calibration)', () => {
    expect(measure([sine(5, 997, 1)])).toBeCloseTo(-3.01, 1);
    expect(measure([sine(5, 997, 1, 48000)], 48000)).toBeCloseTo(-3.01, 1);
  });

  it('when the level drops by 20 dB, then the loudness drops by 20 LU', () => {
    expect(measure([sine(5, 997, 0.1)]) - measure([sine(5, 997, 1)])).toBeCloseTo(-20, 1);
  });

  it('when half of the signal is silence, then gating ignores it', () => {
    const tone = sine(6, 997, 0.5);
    const withSilence = new Float32Array(tone.length * 2);
    withSilence.set(tone);
    // Ungated, doubling the length with silence would read 3 LU lower; only the few 400 ms
    // blocks straddling the edge (above the relative gate) pull it down a little.
    expect(Math.abs(measure([withSilence]) - measure([tone]))).toBeLessThan(0.3);
  });

  it('when the signal is silent, then there is no loudness (-Infinity)', () => {
    expect(measure([new Float32Array(RATE * 2)])).toBe(-Infinity);
  });

  it('when chunk sizes differ, then the result is the same', () => {
    const x = song(4, { bpm: 110, tonic: 4, minor: true, bright: true });
    expect(measure([x], RATE, 1000)).toBeCloseTo(measure([x], RATE, 65536), 6);
  });

  it('when two channels are measured together, then each 100 ms block’s power is the sum of the channels measured alone', () => {
    // Stereo runs through a loop of its own (both filter chains interleaved); one channel through the plain one.
    const left = song(3, { bpm: 100, tonic: 2, minor: false, bright: true, seed: 3 });
    const right = song(3, { bpm: 140, tonic: 9, minor: true, bright: false, seed: 4 });
    const powers = (channels: Float32Array[]): Float64Array => {
      const meter = new LoudnessMeter(RATE);
      for (let i = 0; i < channels[0]!.length; i += 3001) meter.push(channels.map((c) => c.subarray(i, i + 3001)));
      return meter.subBlockPowers();
    };
    const [both, leftAlone, rightAlone] = [powers([left, right]), powers([left]), powers([right])];
    expect(both.length).toBe(30);
    for (let i = 0; i < both.length; i++) {
      expect(leftAlone[i]).not.toBeCloseTo(rightAlone[i]!, 3);
      expect(both[i]! / (leftAlone[i]! + rightAlone[i]!)).toBeCloseTo(1, 12);
    }
  });

  it('when compared with essentia’s LoudnessEBUR128 on stereo music, then they agree within 0.3 LU', () => {
    const left = song(6, { bpm: 120, tonic: 0, minor: false, bright: true, seed: 1 });
    const right = song(6, { bpm: 120, tonic: 0, minor: false, bright: false, seed: 2 });
    const essentia = new Essentia(EssentiaWASM);
    const l = essentia.arrayToVector(left);
    const r = essentia.arrayToVector(right);
    try {
      const out = essentia.LoudnessEBUR128(l, r, 0.1, RATE, false) as {
        integratedLoudness: number;
        momentaryLoudness: { delete(): void };
        shortTermLoudness: { delete(): void };
      };
      out.momentaryLoudness.delete();
      out.shortTermLoudness.delete();
      expect(Math.abs(measure([left, right]) - out.integratedLoudness)).toBeLessThan(0.3);
    } finally {
      l.delete();
      r.delete();
    }
  });
});

describe('loudness when the channel count grows mid-stream', () => {
  it('when dual mono arrives collapsed to one channel and then as stereo, then it reads as stereo throughout', () => {
    const x = sine(6, 997, 0.5);
    const stereo = measure([x, x]);
    const meter = new LoudnessMeter(RATE);
    const half = x.length / 2;
    meter.push([x.subarray(0, half)]);
    meter.push([x.subarray(half), x.subarray(half)]);
    expect(integratedLoudness(meter.subBlockPowers())).toBeCloseTo(stereo, 2);
  });
});
