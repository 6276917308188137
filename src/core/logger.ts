/** The logging surface services use; pino's Logger satisfies it, tests pass a silent one. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** How often a warning that repeats while a dependency is down (Redis, the queue, a cache) is written, ms. */
export const REPEATED_WARNING_INTERVAL_MS = 30_000;

/**
 * A warning written at most once per interval: a dependency that is down fails on every
 * reconnection attempt and every request, and one line per interval says so without flooding
 * the log. Each line carries `suppressed`, how many were held back since the last one.
 */
export class ThrottledWarning {
  private last = -Infinity;
  private suppressed = 0;

  constructor(
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly intervalMs = REPEATED_WARNING_INTERVAL_MS,
  ) {}

  warn(fields: object, msg: string): void {
    const now = Date.now();
    if (now - this.last < this.intervalMs) {
      this.suppressed++;
      return;
    }
    this.logger.warn({ ...fields, suppressed: this.suppressed }, msg);
    this.last = now;
    this.suppressed = 0;
  }
}
