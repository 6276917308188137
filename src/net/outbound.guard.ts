import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent, Dispatcher } from 'undici';
import { lazily } from '../core/lazy';

/**
 * Outbound HTTP to URLs that come from data (a catalogue's preview or cover URL, a
 * webhook's target) must not reach this host's own services or its private network: a record
 * naming http://169.254.169.254/ or http://127.0.0.1:6379/ would otherwise turn the server into
 * a proxy into them (SSRF).
 *
 * The check runs where the connection is made, on the address actually connected to: an IP
 * literal before connecting, a host name in the resolver the socket uses. So a name that
 * resolves to a public address when checked and a private one when connected (DNS rebinding)
 * cannot slip through, and every redirect hop is checked because every hop connects through
 * the same dispatcher. Origins the operator configured (base URLs) are trusted wherever they
 * resolve; OUTBOUND_ALLOW_PRIVATE lifts the rule for closed networks.
 */

export interface OutboundGuardOptions {
  /** Connect to any address (OUTBOUND_ALLOW_PRIVATE): for closed networks and tests. */
  allowPrivate: boolean;
  /** Base URLs the operator configured; their origins are connected to wherever they resolve. */
  trustedOrigins?: readonly string[];
  /** Resolves a host name to every address it has; dns.lookup by default (tests inject their own). */
  resolve?: (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;
}

/** A connection refused because the address it would reach is not a public unicast address. */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
  readonly code = 'ERR_OUTBOUND_REFUSED';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`refused to connect to ${host} (${address}: ${range} address)`);
  }
}

/**
 * Whether an error is, or was caused by, a refusal of this guard (fetch wraps connection errors
 * as its cause). fetch turns an error of another realm (a test runner's sandbox) into a plain
 * Error carrying "<name>: <message>", so that form is recognised too.
 */
export function isOutboundRefusal(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    if (e instanceof OutboundRefusedError) return true;
    const { message, cause } = e as { message?: unknown; cause?: unknown };
    if (typeof message === 'string' && message.startsWith(`${OutboundRefusedError.name}: `)) return true;
    e = cause;
  }
  return false;
}

/** The well-known NAT64 prefix (RFC 6052): the address stands for the IPv4 address in its last 32 bits. */
const NAT64 = 'rfc6052';

/**
 * Why `address` may not be connected to from data (its IANA special-purpose range: loopback,
 * private, linkLocal, uniqueLocal, multicast, unspecified, carrierGradeNat, reserved, 6to4,
 * teredo, …), or undefined for a public unicast address. IPv4-mapped IPv6 (::ffff:a.b.c.d) is
 * judged as the IPv4 address it carries, and so is NAT64's 64:ff9b::a.b.c.d. Anything that is not
 * an IP address in canonical form is refused.
 */
export function nonPublicRange(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (net.isIP(bare.split('%')[0]!) === 0) return 'invalid';
  const ip = ipaddr.process(bare);
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (range === NAT64 && ip.kind() === 'ipv6') {
    const [, , , , , , high, low] = (ip as ipaddr.IPv6).parts;
    const embedded = new ipaddr.IPv4([high! >> 8, high! & 0xff, low! >> 8, low! & 0xff]);
    return embedded.range() === 'unicast' ? undefined : `${NAT64} ${embedded.range()}`;
  }
  return range;
}

const defaultPort = (protocol: string): string => (protocol === 'https:' ? '443' : '80');
const originKey = (protocol: string, hostname: string, port: string): string =>
  `${protocol}//${hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${port || defaultPort(protocol)}`;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const undici = lazily(() => require('undici') as typeof import('undici'));

const systemResolve = (hostname: string, options: LookupOptions): Promise<LookupAddress[]> =>
  dns.promises.lookup(hostname, { ...options, all: true });

/**
 * The HTTP transport for requests whose URL may come from data: an undici dispatcher whose every
 * connection is checked as described above. Give `dispatcher` to fetch, or call `fetch`.
 */
export class OutboundGuard {
  private agent: Agent | undefined;
  private readonly allowPrivate: boolean;
  private readonly trusted: ReadonlySet<string>;
  private readonly resolve: (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

  constructor(options: OutboundGuardOptions) {
    this.allowPrivate = options.allowPrivate;
    this.trusted = new Set(
      (options.trustedOrigins ?? []).map((base) => {
        const url = new URL(base);
        return originKey(url.protocol, url.hostname, url.port);
      }),
    );
    this.resolve = options.resolve ?? systemResolve;
  }

  /**
   * Undefined when private addresses are allowed: requests then use the default dispatcher.
   * Made on first use, with undici itself (a server that never fetches never loads it).
   */
  get dispatcher(): Dispatcher | undefined {
    this.prepare();
    return this.agent;
  }

  /** Makes the dispatcher now, if it is to be made (a caller about to wait for a rate limit's turn). */
  prepare(): void {
    if (!this.allowPrivate) this.agent ??= this.checkedAgent();
  }

  private checkedAgent(): Agent {
    const { Agent, buildConnector } = undici();
    const trusted = this.trusted;
    const open = buildConnector({});
    const checked = buildConnector({ lookup: checkedLookup(this.resolve) });
    return new Agent({
      connect: (connection, callback) => {
        const { protocol, hostname, port } = connection;
        if (trusted.has(originKey(protocol, hostname, port))) return open(connection, callback);
        // An IP literal is connected to without a lookup, so it is judged here.
        if (net.isIP(hostname) !== 0) {
          const range = nonPublicRange(hostname);
          if (range) return callback(new OutboundRefusedError(hostname, hostname, range), null);
        }
        return checked(connection, callback);
      },
    });
  }

  /**
   * Throws the OutboundRefusedError a connection to this URL would meet now (its host an IP
   * literal or a name with a non-public address), or the resolver's error for a name that does
   * not resolve: the check a URL kept for later use (a webhook's) gets when it is given. The
   * connection is checked again whenever it is made: a name may resolve elsewhere by then.
   */
  async check(url: URL): Promise<void> {
    if (this.allowPrivate || this.trusted.has(originKey(url.protocol, url.hostname, url.port))) return;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) !== 0) {
      const range = nonPublicRange(host);
      if (range) throw new OutboundRefusedError(host, host, range);
      return;
    }
    for (const a of await this.resolve(host, {})) {
      const range = nonPublicRange(a.address);
      if (range) throw new OutboundRefusedError(host, a.address, range);
    }
  }

  /** The global fetch through this guard. */
  fetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
    if (!this.dispatcher) return fetch(input, init);
    return fetch(input, { ...init, dispatcher: this.dispatcher });
  }

  /** Closes the guard's idle connections. */
  async close(): Promise<void> {
    await this.agent?.close();
  }
}

/**
 * A socket's resolver that refuses a name if any of its addresses is not public: refusing the
 * name rather than skipping the address leaves no way to steer the connection by the order of
 * a DNS answer.
 */
function checkedLookup(resolve: (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    resolve(hostname, { ...(family ? { family } : {}), ...(options.hints !== undefined ? { hints: options.hints } : {}) }).then(
      (addresses) => {
        for (const a of addresses) {
          const range = nonPublicRange(a.address);
          if (range) return callback(new OutboundRefusedError(hostname, a.address, range), '', 0);
        }
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (usable.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          error.code = 'ENOTFOUND';
          return callback(error, '', 0);
        }
        if (options.all) return callback(null, usable);
        return callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
