import dns from 'node:dns';
import net from 'node:net';
import { request } from 'undici';
import { startFakeServer } from '../../helpers/fake-http';
import { takeNetworkViolations } from '../../helpers/network';

/* The guard every test file runs under (test/setup/network-guard.ts): loopback only. */

afterEach(() => {
  takeNetworkViolations();
});

it('refuses fetch, undici and a raw socket to a public address, and says so', async () => {
  await expect(fetch('http://93.184.215.14/')).rejects.toThrow();
  await expect(request('http://93.184.215.14/')).rejects.toThrow(/network is off/);
  const socket = net.connect({ host: '1.1.1.1', port: 53 });
  await expect(new Promise((_resolve, reject) => socket.once('error', reject))).rejects.toThrow(/network is off/);
  expect(takeNetworkViolations()).toEqual(['93.184.215.14', '93.184.215.14', '1.1.1.1']);
});

it('refuses to resolve a public name, by callback and by promise', async () => {
  await expect(dns.promises.lookup('deezer.com')).rejects.toThrow(/network is off/);
  await expect(new Promise((resolve, reject) => dns.lookup('musicbrainz.org', (error, address) => (error ? reject(error) : resolve(address))))).rejects.toThrow(
    /network is off/,
  );
  await expect(fetch('http://api.deezer.com/search')).rejects.toThrow();
  expect(takeNetworkViolations()).toEqual(expect.arrayContaining(['deezer.com', 'musicbrainz.org', 'api.deezer.com']));
});

it('lets loopback through: a local server answers', async () => {
  const server = await startFakeServer();
  server.route('/ok', (_req, res) => void res.end('ok'));
  try {
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe('ok');
    expect(await dns.promises.lookup('localhost')).toMatchObject({ address: expect.stringMatching(/^(127\.|::1)/) });
  } finally {
    await server.close();
  }
  expect(takeNetworkViolations()).toEqual([]);
});
