import { Writable } from 'node:stream';
import { pino, type Logger as PinoLogger } from 'pino';

/** One JSON line pino wrote, parsed. */
export interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

/** pino's numeric levels, for asserting on captured lines. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/**
 * A pino logger writing parsed lines into an array instead of stdout, so a test can assert what
 * reached the log (and, as importantly, what did not).
 */
export function captureLogs(level: pino.Level = 'debug'): { logger: PinoLogger; lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const logger = pino(
    { level },
    {
      write(chunk: string) {
        raw.push(chunk);
        lines.push(JSON.parse(chunk) as LogLine);
      },
    },
  );
  return { logger, lines, text: () => raw.join('') };
}

/** A writable stream that keeps what is written, for code that takes a stream (pino-pretty, the CLIs). */
export function textSink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}
