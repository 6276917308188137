import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request, { type Response } from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const COVER = new Uint8Array(readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'images', 'cover.png')));
const MONEY = trackKey('Pink Floyd', 'Money');

/** A Content-Security-Policy header as directive name → value. */
function policy(res: Response): Map<string, string> {
  const header = res.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    (header as string)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.slice(d.split(/\s+/)[0]!.length).trim()] as [string, string]),
  );
}

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    const engine = new FakeEngine();
    engine.tags.set('money.mp3', { artist: 'Pink Floyd', title: 'Money', picture: { mime: 'image/png', data: COVER } });
    engine.tags.set('page.mp3', { artist: 'Pink Floyd', title: 'Page', picture: { mime: 'text/html', data: new TextEncoder().encode('<html>') } });
    t = await createTestApp({
      engine,
      prepareLibrary: async (dir) => {
        await writeFile(path.join(dir, 'money.mp3'), 'audio of money');
        await writeFile(path.join(dir, 'page.mp3'), 'audio of page');
      },
    });
  });
  afterAll(() => t.close());

  const signed = (key: string): string => {
    const url = new URL(t.container.artwork.url(key));
    return url.pathname + url.search;
  };

  const EVERY: [string, () => request.Test][] = [
    ['a search', () => request(t.app).get('/api/audio/search?track=Money').set(t.auth)],
    ['a 401', () => request(t.app).get('/api/audio/search?track=Money')],
    ['a 400', () => request(t.app).get('/api/audio/search?track=%zz').set(t.auth)],
    ['an unknown /api route', () => request(t.app).get('/api/nowhere').set(t.auth)],
    ['an unknown path', () => request(t.app).get('/nowhere')],
    ['the OpenAPI document', () => request(t.app).get('/api/openapi.json')],
    ['/healthz', () => request(t.app).get('/healthz')],
    ['/readyz', () => request(t.app).get('/readyz')],
    ['/metrics', () => request(t.app).get('/metrics')],
    ['artwork', () => request(t.app).get(signed(MONEY))],
    ['refused artwork', () => request(t.app).get(signed(trackKey('Pink Floyd', 'Page')))],
    ['a GraphQL POST', () => request(t.app).post('/graphql').set(t.auth).send({ query: '{ trackKey(artist: "a", track: "b") }' })],
    ['a GraphQL 401', () => request(t.app).post('/graphql').send({ query: '{ __typename }' })],
    ['the GraphQL landing page', () => request(t.app).get('/graphql').set('Accept', 'text/html')],
    ['Apollo Sandbox', () => request(t.app).get('/graphql?sandbox').set('Accept', 'text/html')],
  ];

  it.each(EVERY)('%s carries X-Content-Type-Options: nosniff', async (_name, send) => {
    const res = await send();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(EVERY.filter(([name]) => name !== 'Apollo Sandbox' && name !== 'an unknown path'))(
    '%s carries a policy that lets nothing load, run or frame it',
    async (_name, send) => {
      const csp = policy(await send());
      expect(csp.get('default-src')).toBe("'none'");
      expect(csp.get('frame-ancestors')).toBe("'none'");
      expect(csp.get('base-uri')).toBe("'none'");
      expect(csp.get('form-action')).toBe("'none'");
    },
  );

  it('sandboxes artwork opened on its own, and lets other origins show it in <img>', async () => {
    const res = await request(t.app).get(signed(MONEY)).expect(200);
    expect(policy(res).has('sandbox')).toBe(true);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('keeps JSON answers to their own origin for no-cors loads (a <script> on another site)', async () => {
    const res = await request(t.app).get('/api/audio/search?track=Money').set(t.auth).expect(200);
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('lets the GraphQL landing page apply its one stylesheet and show its icon, nothing else', async () => {
    const res = await request(t.app).get('/graphql').set('Accept', 'text/html').expect(200);
    const csp = policy(res);
    const [style] = /<style>([\s\S]*?)<\/style>/.exec(res.text)!.slice(1);
    expect(csp.get('style-src')).toBe(`'sha256-${createHash('sha256').update(style!).digest('base64')}'`);
    expect(csp.get('img-src')).toBe("'self'");
    expect(csp.get('script-src')).toBeUndefined();
  });

  it('leaves Apollo Sandbox under its own nonce policy, adding only what it does not need', async () => {
    const res = await request(t.app).get('/graphql?sandbox').set('Accept', 'text/html').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // Apollo's page carries the policy its CDN scripts, styles and frame need, with a nonce.
    expect(res.text).toMatch(/<meta http-equiv="Content-Security-Policy" content="script-src [^"]*'nonce-[^']+'[^"]* https:\/\/embeddable-sandbox\.cdn\.apollographql\.com/);
    const csp = policy(res);
    // A header policy restricting any fetch directive would be enforced together with it and break the page.
    expect([...csp.keys()].sort()).toEqual(['base-uri', 'frame-ancestors', 'object-src']);
    expect(csp.get('frame-ancestors')).toBe("'none'");
  });

  it('sends no HSTS (the TLS-terminating proxy owns it) and no X-Powered-By', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('security headers with Apollo Sandbox off (GRAPHQL_SANDBOX=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), env: { GRAPHQL_SANDBOX: 'false' } });
  });
  afterAll(() => t.close());

  it('answers /graphql?sandbox under the landing page\'s strict policy, not Sandbox\'s', async () => {
    const res = await request(t.app).get('/graphql?sandbox').set('Accept', 'text/html');
    expect(res.text).not.toMatch(/embeddable-sandbox/);
    const csp = policy(res);
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('script-src')).toBeUndefined();
  });
});
