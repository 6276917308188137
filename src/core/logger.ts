import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

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

/** LOG_FORMAT: pino's JSON lines, pino-pretty's readable lines, or readable when the output is a terminal. */
export type LogFormat = 'auto' | 'pretty' | 'json';

export interface LoggerOptions {
  level: string;
  format: LogFormat;
  /** Where the lines go: 1 (stdout, the server's) or 2 (stderr, a command-line tool's). */
  fd?: 1 | 2;
  /** Whether that output is a terminal (default: asked of the stream); tests set it. */
  isTTY?: boolean;
  /** Write here instead of the file descriptor (tests, benchmarks). */
  stream?: DestinationStream;
}

/**
 * A process's logger. JSON lines, one object each, for collectors (a file, a pipe, a container's
 * log driver); readable lines when a person watches a terminal: time, level, message, then the
 * fields on the same line, colours when the terminal has them (NO_COLOR turns them off).
 */
export function createLogger(options: LoggerOptions): PinoLogger {
  const fd = options.fd ?? 1;
  const tty = options.isTTY ?? (fd === 1 ? process.stdout : process.stderr).isTTY === true;
  const readable = options.format === 'pretty' || (options.format === 'auto' && tty);
  // A server's lines (stdout) are written asynchronously: a line waits in memory only while the
  // previous write is in flight, so under load many go out in one write where each was a write of
  // its own, and pino writes what is pending synchronously when the process exits. A command-line
  // tool's (stderr) are written at once, beside its progress output.
  if (!readable) return pino({ level: options.level }, options.stream ?? pino.destination({ dest: fd, sync: fd === 2 }));
  // Required here: JSON logging (servers, containers, tests) never loads pino-pretty.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pretty = require('pino-pretty') as typeof import('pino-pretty');
  return pino(
    { level: options.level },
    pretty({
      destination: options.stream ?? fd,
      sync: true,
      // Colours only on a terminal; pino-pretty's own default also honours NO_COLOR there.
      ...(tty ? {} : { colorize: false }),
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
    }),
  );
}
