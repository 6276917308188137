/**
 * A value made the first time it is asked for, then kept. The clients of the scaled-out backends
 * (ioredis, BullMQ, @keyv/redis, pg) are required through it where they are first used rather
 * than when the modules naming them load: the embedded default (SQLite, no Redis) never uses
 * them, and loading them costs about 0.5 s of CPU at every start (a server, a CLI run, a test
 * file's app). undici and node-taglib-sharp are required the same way, for what uses them less
 * often (fetches that leave the machine, tags written back).
 */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
