import fc from 'fast-check';
import { FACTOR, FIRST_RETRY_MS, JITTER, MAX_ATTEMPTS, retryDelayMs } from '../../../src/webhooks/webhook.schedule';

describe('the retry schedule of a failed delivery', () => {
  it('retries first within 10 s, grows by 4 each time, and waits about a day before the last attempt', () => {
    const middle = () => 0.5;
    const waits = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, middle)!);
    expect(waits[0]).toBe(FIRST_RETRY_MS);
    for (let i = 1; i < waits.length; i++) expect(waits[i]! / waits[i - 1]!).toBe(FACTOR);
    expect(retryDelayMs(1, () => 0.999_999)!).toBeLessThanOrEqual(10_000);
    expect(waits.at(-1)! / 3_600_000).toBeGreaterThan(18);
    expect(waits.at(-1)! / 3_600_000).toBeLessThan(30);
  });

  it('has no wait after the last attempt, nor before the first', () => {
    expect(retryDelayMs(MAX_ATTEMPTS)).toBeUndefined();
    expect(retryDelayMs(0)).toBeUndefined();
  });

  it('spreads each wait uniformly within ±20 % of its step, so nodes that failed together retry apart', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_ATTEMPTS - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const base = FIRST_RETRY_MS * FACTOR ** (attempt - 1);
        const wait = retryDelayMs(attempt, () => r)!;
        expect(wait).toBeGreaterThanOrEqual(Math.floor(base * (1 - JITTER)));
        expect(wait).toBeLessThanOrEqual(Math.ceil(base * (1 + JITTER)));
      }),
    );
    expect(retryDelayMs(1, () => 0)).toBe(4000);
    expect(retryDelayMs(1, () => 0.75)).toBe(5500);
  });
});
