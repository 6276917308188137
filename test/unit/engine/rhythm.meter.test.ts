import { measureMeter } from '../../../src/engine/rhythm.meter';

const PERIOD = 20;
const LAGS = 12 * PERIOD;

/**
 * An onset autocorrelation with a peak at every beat, each lower than the last by `decay` (the
 * music drifts and varies), and `accent` more at every multiple of `bar` beats.
 */
function decayingRepeats(bar: number, decay: number, accent: number): Float64Array {
  const r = new Float64Array(LAGS + 1);
  for (let lag = 0; lag <= LAGS; lag++) {
    const k = Math.round(lag / PERIOD);
    const height = 1 - decay * k + (k > 0 && k % bar === 0 ? accent : 0);
    r[lag] = height * Math.exp(-(((lag - k * PERIOD) / 2) ** 2));
  }
  return r;
}

function meterOf(r: Float64Array) {
  const flat = new Float64Array(r.length);
  const beats = Array.from({ length: 24 }, (_, i) => i * PERIOD);
  return measureMeter({ period: PERIOD, beats, r, rLow: flat, rChords: flat, low: new Float64Array(25 * PERIOD), chordChange: new Float64Array(25 * PERIOD) });
}

describe('meter', () => {
  describe.each([3, 4])('when every beat repeats, less at each longer lag, and every %d beats a little more', (bar) => {
    // The beat's repeat falls by 0.06 a beat: 3 and 6 beats (0.82 + 0.64) stand above 4 and 8
    // with their accents (0.81 + 0.57), so the raw autocorrelations would read 3/4 either way.
    const meter = meterOf(decayingRepeats(bar, 0.06, 0.05));

    it('then the bar is the lag that stands above its neighbours, not the shorter lag', () => {
      expect(meter.beatsPerBar).toBe(bar);
      expect(meter.confidence).toBeGreaterThan(0.1);
    });
  });

  it('when every beat repeats alike with no accent, then the confidence is low', () => {
    const meter = meterOf(decayingRepeats(4, 0.06, 0));
    expect(meter.confidence).toBeLessThan(0.01);
  });
});
