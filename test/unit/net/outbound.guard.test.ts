import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import { OutboundGuard, isOutboundRefusal, nonPublicRange } from '../../../src/net/outbound.guard';
import { FakeServer, sendJson, startFakeServer } from '../../helpers/fake-http';

/**
 * Sockets are watched where undici opens them: any connection to something other than this
 * host's loopback fails the test at once, so a guard that let a private or public address
 * through could not reach the network from here.
 */
const connected: string[] = [];
let connectSpy: jest.SpyInstance;
beforeAll(() => {
  const original = net.connect.bind(net) as (...args: unknown[]) => net.Socket;
  connectSpy = jest.spyOn(net, 'connect').mockImplementation(((...args: unknown[]) => {
    const options = args[0] as { host?: string; lookup?: unknown };
    const host = options.host ?? '';
    connected.push(host);
    // A host name goes through the guard's lookup, which decides; literals must be loopback here.
    if (net.isIP(host) !== 0 && host !== '127.0.0.1' && host !== '::1') throw new Error(`test tried to connect to ${host}`);
    return original(...args);
  }));
});
afterAll(() => connectSpy.mockRestore());

let server: FakeServer;
beforeEach(async () => {
  connected.length = 0;
  server = await startFakeServer();
  server.route('/x', (_req, res) => sendJson(res, 200, { reached: true }));
});
afterEach(async () => {
  await server.close();
});

const port = (): string => new URL(server.url).port;

async function refusal(guard: OutboundGuard, url: string): Promise<unknown> {
  try {
    await guard.fetch(url, { signal: AbortSignal.timeout(2000) });
  } catch (error) {
    return error;
  }
  throw new Error(`${url} was fetched`);
}

describe('nonPublicRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::7f00:1', 'rfc6052 loopback'],
    ['2002:7f00:1::', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['[::1]', 'loopback'],
  ])('refuses %s (%s)', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('accepts the public address %s', (address) => {
    expect(nonPublicRange(address)).toBeUndefined();
  });

  it.each(['localhost', '2130706433', '0x7f.1', '127.1', ''])('refuses %j, which is no address in canonical form', (value) => {
    expect(nonPublicRange(value)).toBe('invalid');
  });
});

describe('OutboundGuard', () => {
  it.each([
    ['an IPv4 literal', () => `http://127.0.0.1:${port()}/x`],
    ['a decimal IPv4 spelling', () => `http://2130706433:${port()}/x`],
    ['an octal IPv4 spelling', () => `http://017700000001:${port()}/x`],
    ['a hexadecimal IPv4 spelling', () => `http://0x7f.0.0.1:${port()}/x`],
    ['a short IPv4 spelling', () => `http://127.1:${port()}/x`],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${port()}/x`],
    ['the IPv6 loopback', () => `http://[::1]:${port()}/x`],
    ['a name resolving to loopback', () => `http://localhost:${port()}/x`],
  ])('refuses a loopback address written as %s, without a request', async (_label, url) => {
    const guard = new OutboundGuard({ allowPrivate: false });
    expect(isOutboundRefusal(await refusal(guard, url()))).toBe(true);
    expect(server.requests).toHaveLength(0);
    await guard.close();
  });

  it.each(['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://192.168.0.1:8080/', 'http://[fd00::1]/', 'http://0.0.0.0/'])(
    'refuses %s before any socket is opened',
    async (url) => {
      const guard = new OutboundGuard({ allowPrivate: false });
      expect(isOutboundRefusal(await refusal(guard, url))).toBe(true);
      expect(connected).toEqual([]);
      await guard.close();
    },
  );

  it('checks a host name at connection time, with every address it resolves to', async () => {
    const asked: string[] = [];
    const answers: Record<string, LookupAddress[]> = {
      // A public address first does not hide a private one behind it.
      'mixed.test': [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
      'metadata.test': [{ address: '169.254.169.254', family: 4 }],
      'v6.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
    };
    const guard = new OutboundGuard({
      allowPrivate: false,
      resolve: async (hostname) => {
        asked.push(hostname);
        return answers[hostname] ?? [];
      },
    });
    for (const host of Object.keys(answers)) {
      expect(isOutboundRefusal(await refusal(guard, `http://${host}:${port()}/x`))).toBe(true);
    }
    expect(asked).toEqual(Object.keys(answers));
    expect(server.requests).toHaveLength(0);
    await guard.close();
  });

  it('reaches an origin the operator configured, wherever it resolves, but not another port of the same host', async () => {
    const guard = new OutboundGuard({ allowPrivate: false, trustedOrigins: [`${server.url}/api`] });
    const res = await guard.fetch(`${server.url}/x`);
    expect(await res.json()).toEqual({ reached: true });
    // The watch on sockets sees the guard's connections (so the "no socket" checks above mean something).
    expect(connected).toContain('127.0.0.1');
    const other = await startFakeServer();
    try {
      expect(isOutboundRefusal(await refusal(guard, `${other.url}/x`))).toBe(true);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
      await guard.close();
    }
  });

  it('checks every redirect hop: the trusted origin redirecting to another loopback port is refused', async () => {
    const internal = await startFakeServer();
    internal.route('/secret', (_req, res) => sendJson(res, 200, { secret: true }));
    server.route('/go', (_req, res) => {
      res.writeHead(302, { location: `${internal.url}/secret` });
      res.end();
    });
    const guard = new OutboundGuard({ allowPrivate: false, trustedOrigins: [server.url] });
    try {
      expect(isOutboundRefusal(await refusal(guard, `${server.url}/go`))).toBe(true);
      expect(server.count('/go')).toBe(1);
      expect(internal.requests).toHaveLength(0);
    } finally {
      await internal.close();
      await guard.close();
    }
  });

  it('with allowPrivate (OUTBOUND_ALLOW_PRIVATE), loopback is reached through the default dispatcher', async () => {
    const guard = new OutboundGuard({ allowPrivate: true });
    expect(guard.dispatcher).toBeUndefined();
    const res = await guard.fetch(`http://localhost:${port()}/x`);
    expect(res.status).toBe(200);
    await guard.close();
  });
});

describe('OutboundGuard.check: a URL kept for later use (a webhook\'s), judged when it is given', () => {
  const resolveTo = (answers: Record<string, LookupAddress[]>) => (hostname: string) => {
    const found = answers[hostname];
    if (found) return Promise.resolve(found);
    return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  };

  it.each([
    ['http://127.0.0.1:9/', '127.0.0.1', 'loopback'],
    ['http://[fd00::1]/', 'fd00::1', 'uniqueLocal'],
    ['http://169.254.169.254/latest/', '169.254.169.254', 'linkLocal'],
    ['http://inside.test/', '10.0.0.7', 'private'],
    ['http://mixed.test/', '10.0.0.7', 'private'],
  ])('refuses %s: %s is a %s address', async (url, address, range) => {
    const guard = new OutboundGuard({
      allowPrivate: false,
      resolve: resolveTo({ 'inside.test': [{ address: '10.0.0.7', family: 4 }], 'mixed.test': [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }] }),
    });
    await expect(guard.check(new URL(url))).rejects.toMatchObject({ name: 'OutboundRefusedError', address, range });
    expect(connected).toEqual([]);
    await guard.close();
  });

  it('accepts a public address or a name with only public ones; a name that does not resolve is the resolver\'s error', async () => {
    const guard = new OutboundGuard({ allowPrivate: false, resolve: resolveTo({ 'hooks.test': [{ address: '93.184.216.34', family: 4 }, { address: '2606:4700::1', family: 6 }] }) });
    await expect(guard.check(new URL('https://93.184.216.34/hooks'))).resolves.toBeUndefined();
    await expect(guard.check(new URL('https://hooks.test/hooks'))).resolves.toBeUndefined();
    await expect(guard.check(new URL('https://nowhere.test/'))).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(connected).toEqual([]);
    await guard.close();
  });

  it('lets anything through with allowPrivate, and a trusted origin wherever it resolves', async () => {
    const open = new OutboundGuard({ allowPrivate: true });
    await expect(open.check(new URL('http://127.0.0.1/'))).resolves.toBeUndefined();
    const trusting = new OutboundGuard({ allowPrivate: false, trustedOrigins: ['http://127.0.0.1:8080/api'] });
    await expect(trusting.check(new URL('http://127.0.0.1:8080/hooks'))).resolves.toBeUndefined();
    await expect(trusting.check(new URL('http://127.0.0.1:8081/hooks'))).rejects.toMatchObject({ range: 'loopback' });
    await open.close();
    await trusting.close();
  });
});
