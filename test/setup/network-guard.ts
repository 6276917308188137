import dns from 'node:dns';
import net from 'node:net';

/*
 * Every test file runs with the network off (jest.config.js: setupFilesAfterEnv). A socket may
 * connect only to this host's loopback (or a local socket path), and a name is resolved only if it
 * is `localhost`: anything else fails at once, and the file fails in afterAll even if the code under
 * test swallowed the error (as a best-effort source would). Sockets are caught where every client
 * opens them (net.Socket's connect: fetch, undici, pg, ioredis, WebSockets alike).
 */

/** What was refused in this file so far (shared with test/helpers/network.ts, which lets a test take them). */
const violations: string[] = ((globalThis as Record<symbol, unknown>)[Symbol.for('trackgraph.networkViolations')] ??= []) as string[];

function isLoopback(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (h === 'localhost') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  if (net.isIPv6(h)) return h === '::1' || /^::ffff:127\./i.test(h);
  return false;
}

function refused(what: string): Error {
  violations.push(what);
  return Object.assign(new Error(`test tried to reach ${what}: the network is off in tests`), { code: 'ENETUNREACH' });
}

/** Where a connect() call goes: a host, or undefined for a local socket path. `lookup`: a resolver of its own was given. */
function target(args: unknown[]): { host: string; lookup: boolean } | undefined {
  const [first, second] = args;
  if (Array.isArray(first)) return target(first as unknown[]);
  if (typeof first === 'object' && first !== null) {
    const o = first as { host?: string; path?: string; lookup?: unknown };
    if (o.path !== undefined) return undefined;
    return { host: o.host ?? 'localhost', lookup: typeof o.lookup === 'function' };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined; // a local socket path
  return { host: typeof second === 'string' ? second : 'localhost', lookup: false };
}

// The prototype's own method, put back as it was after the file (never called unbound).
// eslint-disable-next-line @typescript-eslint/unbound-method
const originalConnect = net.Socket.prototype.connect;
const originalLookup = dns.lookup;
const originalPromisesLookup = dns.promises.lookup;

beforeAll(() => {
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const to = target(args);
    // A name with a resolver of its own is judged by that resolver (tests give one resolving to
    // loopback; the outbound guard's default one goes through dns.lookup, guarded below).
    if (to && !isLoopback(to.host) && !(to.lookup && net.isIP(to.host) === 0)) {
      const error = refused(to.host);
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  };

  dns.lookup = function guardedLookup(hostname: string, ...rest: unknown[]) {
    if (!isLoopback(hostname) && net.isIP(hostname) === 0) {
      const callback = rest[rest.length - 1] as (error: Error) => void;
      const error = refused(hostname);
      process.nextTick(() => callback(error));
      return;
    }
    return (originalLookup as (...a: unknown[]) => unknown)(hostname, ...rest);
  } as typeof dns.lookup;

  dns.promises.lookup = function guardedPromisesLookup(hostname: string, ...rest: unknown[]) {
    if (!isLoopback(hostname) && net.isIP(hostname) === 0) return Promise.reject(refused(hostname));
    return (originalPromisesLookup as (...a: unknown[]) => Promise<unknown>)(hostname, ...rest);
  } as typeof dns.promises.lookup;
});

afterAll(() => {
  net.Socket.prototype.connect = originalConnect;
  dns.lookup = originalLookup;
  dns.promises.lookup = originalPromisesLookup;
  const seen = violations.splice(0);
  expect(seen).toEqual([]);
});
