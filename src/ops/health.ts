
/** One dependency readiness checks. */
export interface DependencyCheck {
  name: string;
  /**
   * Essential: the node cannot serve without it (the store: API keys and analyses live there),
   * so readiness fails. Otherwise the node serves degraded (a cache miss, no new analyses) and
   * readiness reports it without failing: pulling every node out of a load balancer because
   * Redis is down would also stop the stored analyses Postgres can still serve.
   */
  essential: boolean;
  ping(): Promise<void>;
}

/** A dependency that works but is not complete yet (a library being indexed): reported as it says, not as unreachable. */
export class StillStarting extends Error {}

/** A dependency that answers but not wholly (a source whose circuit is open): reported as "degraded: <why>". */
export class Degraded extends Error {}

export interface Readiness {
  status: 'ready' | 'degraded' | 'not ready';
  /** "ok", "unreachable: <why>", or what a dependency still starting says, per dependency. */
  checks: Record<string, string>;
}

/** How long one dependency may take to answer a readiness probe, ms. */
const CHECK_TIMEOUT_MS = 2000;

export async function checkReadiness(checks: readonly DependencyCheck[]): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async (c) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          c.ping(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
          }),
        ]);
        return { c, error: undefined };
      } catch (error) {
        if (error instanceof StillStarting) return { c, error: error.message, starting: true };
        if (error instanceof Degraded) return { c, error: `degraded: ${error.message}` };
        return { c, error: `unreachable: ${error instanceof Error ? error.message || error.name : String(error)}` };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const out: Record<string, string> = {};
  for (const r of results) out[r.c.name] = r.error ?? 'ok';
  const failed = results.filter((r) => r.error !== undefined);
  const status = failed.some((r) => r.c.essential) ? 'not ready' : failed.length > 0 ? 'degraded' : 'ready';
  return { status, checks: out };
}
