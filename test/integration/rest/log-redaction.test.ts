import request from 'supertest';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { captureLogs } from '../../helpers/log-capture';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const SECRET = 'tg_live_0123456789abcdefSECRET';

describe('secrets in URLs never reach the log', () => {
  let t: TestApp;
  const log = captureLogs();
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), logger: log.logger });
  });
  afterAll(() => t.close());
  beforeEach(() => log.lines.splice(0));

  const loggedUrls = () => log.lines.map((l) => (l.req as { url?: string } | undefined)?.url).filter((u): u is string => u !== undefined);

  it.each([
    ['api_key', `/api/audio/search?track=Money&api_key=${SECRET}&artist=Pink+Floyd`],
    ['key', `/api/audio/search?key=${SECRET}&track=Money`],
    ['token', `/api/audio/search?track=Money&token=${SECRET}`],
    ['access_token', `/api/audio/analysis/bc24aaa5a97c70ed?access_token=${SECRET}`],
    ['a name in capitals', `/api/audio/search?track=Money&API_KEY=${SECRET}`],
    ['a percent-encoded name', `/api/audio/search?track=Money&api%5Fkey=${SECRET}`],
    ['a name with brackets', `/api/audio/search?track=Money&token[]=${SECRET}`],
    ['an unknown route', `/api/nowhere?access_token=${SECRET}`],
    ['the artwork signature', `/api/audio/artwork/bc24aaa5a97c70ed?sig=${SECRET}`],
    ['a second artwork signature', `/api/audio/artwork/bc24aaa5a97c70ed?sig=x&sig=${SECRET}`],
  ])('%s: the value is replaced, the rest of the URL kept', async (_case, url) => {
    // With and without a valid key: a 2xx is logged at info, a 4xx at warn.
    await request(t.app).get(url).set(t.auth);
    await request(t.app).get(url);
    expect(log.text()).not.toContain(SECRET);
    const urls = loggedUrls();
    expect(urls).toHaveLength(2);
    for (const logged of urls) {
      expect(logged).toContain('[REDACTED]');
      expect(logged.split('?')[0]).toBe(url.split('?')[0]);
      expect(logged.replace('[REDACTED]', SECRET)).toContain(url.split('?')[1]!.split('&').find((p) => p.includes(SECRET)));
    }
  });

  it('keeps parameters that only look alike (keys, track) as they were', async () => {
    await request(t.app).get('/api/audio/analyses?keys=bc24aaa5a97c70ed').set(t.auth);
    await request(t.app).get('/api/audio/search?track=token&monkey=1').set(t.auth);
    expect(loggedUrls()).toEqual(['/api/audio/analyses?keys=bc24aaa5a97c70ed', '/api/audio/search?track=token&monkey=1']);
  });
});
