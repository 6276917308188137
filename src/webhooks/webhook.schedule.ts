/*
 * When a failed delivery is tried again: exponential backoff with jitter. The n-th retry waits
 * FIRST_RETRY_MS × FACTOR^(n-1), give or take JITTER of it: about 5 s, 20 s, 80 s, 5 min, 21 min,
 * 85 min, 5.7 h and 23 h, so a receiver that is down for a day still gets the event, and the
 * nodes of a deployment that failed together do not retry together.
 */

/** Attempts of one delivery, the first included; after the last failure it is failed for good. */
export const MAX_ATTEMPTS = 9;
export const FIRST_RETRY_MS = 5_000;
export const FACTOR = 4;
/** The delay is scaled by a factor drawn uniformly in [1 - JITTER, 1 + JITTER]. */
export const JITTER = 0.2;

/**
 * The wait before the attempt after `attemptsMade` failed attempts, ms, or undefined when none is
 * left. `random` is uniform in [0, 1) (Math.random; tests pass their own).
 */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number | undefined {
  if (attemptsMade < 1 || attemptsMade >= MAX_ATTEMPTS) return undefined;
  const base = FIRST_RETRY_MS * FACTOR ** (attemptsMade - 1);
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
