/*
 * Timers that keep this process up (Node's active resources), for tests that check a closed
 * client leaves none behind: a timer left running holds the process, a CLI's exit and Jest's
 * worker after its last test, until it fires.
 */

export const activeTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/**
 * Whether the active timers fall to `most` or fewer within `ms` and stay there for 300 ms
 * (looked at every 50 ms): a client that keeps retrying is between two pauses for a moment only.
 */
export async function timersFallTo(most: number, ms: number): Promise<boolean> {
  let since: number | undefined;
  for (let waited = 0; waited < ms + 300; waited += 50) {
    // Measured after the pause's own timer has fired: it is not counted.
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (activeTimers() > most) since = undefined;
    else if ((since ??= waited) <= waited - 300) return true;
  }
  return false;
}
