import { silentLogger } from '../../../../src/core/logger';
import { MusicBrainzSource } from '../../../../src/sources/musicbrainz/musicbrainz.source';
import { startFakeMusicBrainz } from '../../../fixtures/sources/catalogues';
import { FakeServer, sendJson, sourceFixture } from '../../../helpers/fake-http';


let server: FakeServer;
let source: MusicBrainzSource;
const ctx = () => ({ signal: AbortSignal.timeout(5000) });

beforeEach(async () => {
  server = await startFakeMusicBrainz();
  source = new MusicBrainzSource(
    {
      baseUrl: `${server.url}/ws/2`,
      coverArtBaseUrl: 'http://covers.test',
      userAgent: 'trackgraph/0.1.0 ( ops@example.org )',
      timeoutMs: 2000,
      // Tests must not wait a real second between calls.
      rateLimit: { max: 100, intervalMs: 1000 },
      retry: { retries: 2, initialDelayMs: 1, maxDelayMs: 5 },
    },
    silentLogger,
  );
});
afterEach(async () => {
  await source.close();
  await server.close();
});

describe('MusicBrainzSource', () => {
  it('searches recordings with a Lucene query, JSON and a User-Agent with contact', async () => {
    const found = await source.search({ track: 'Money', artist: 'Pink Floyd', limit: 7 }, ctx());
    expect(found[0]).toMatchObject({ trackName: 'Money', artist: 'Pink Floyd', sourceScore: 1 });
    expect(found[0]?.thumbnailUrl).toMatch(/^http:\/\/covers\.test\/release\/[0-9a-f-]+\/front-250$/);
    const req = server.requests[0]!;
    expect(req.query.get('query')).toBe('recording:"Money" AND artist:"Pink Floyd"');
    expect(req.query.get('fmt')).toBe('json');
    expect(req.query.get('limit')).toBe('7');
    expect(req.headers['user-agent']).toBe('trackgraph/0.1.0 ( ops@example.org )');
  });

  it('when MusicBrainz answers 503 with Retry-After (its rate-limit answer), then it waits and retries', async () => {
    let calls = 0;
    server.route('/ws/2/recording', (_req, res) =>
      ++calls === 1
        ? sendJson(res, 503, { error: 'Your requests are exceeding the allowable rate limit.' }, { 'retry-after': '0' })
        : sendJson(res, 200, sourceFixture('musicbrainz/recording-money.json')),
    );
    await expect(source.search({ track: 'Money', limit: 5 }, ctx())).resolves.toHaveLength(3);
    expect(calls).toBe(2);
  });

  it('when MusicBrainz answers JSON without recordings, then UPSTREAM_UNAVAILABLE', async () => {
    server.route('/ws/2/recording', (_req, res) => sendJson(res, 200, { error: 'Invalid query' }));
    await expect(source.search({ track: 'Money', limit: 5 }, ctx())).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  it('has no audio of its own', () => {
    expect('fetchAudio' in source).toBe(false);
  });
});
