/**
 * What the network guard (test/setup/network-guard.ts) refused in this file so far, taken (the
 * guard then fails the file only for later attempts). For tests of the guard itself.
 */
export function takeNetworkViolations(): string[] {
  const violations = (globalThis as Record<symbol, unknown>)[Symbol.for('trackgraph.networkViolations')] as string[] | undefined;
  return violations ? violations.splice(0) : [];
}
