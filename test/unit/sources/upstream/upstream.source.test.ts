import type { Logger } from '../../../../src/core/logger';
import { silentLogger } from '../../../../src/core/logger';
import { trackKey } from '../../../../src/core/track-key';
import type { TrackMetadata } from '../../../../src/core/types';
import { UpstreamSource } from '../../../../src/sources/upstream/upstream.source';
import { startFakeUpstream } from '../../../fixtures/sources/catalogues';
import { FakeServer, sendJson, sourceFixture } from '../../../helpers/fake-http';


const KEY = 'upstream-secret';
let server: FakeServer;
const ctx = () => ({ signal: AbortSignal.timeout(5000) });
const make = (apiKey = KEY, logger: Logger = silentLogger): UpstreamSource =>
  new UpstreamSource(
    { baseUrl: `${server.url}/api`, apiKey, timeoutMs: 2000, maxPollDelayMs: 5, retry: { retries: 1, initialDelayMs: 1, maxDelayMs: 5 } },
    logger,
  );

const money: TrackMetadata = {
  artist: 'Pink Floyd',
  trackName: 'Money',
  trackKey: trackKey('Pink Floyd', 'Money'),
  source: 'upstream',
  audio: { source: 'upstream', locator: 'bc24aaa5a97c70ed' },
};

beforeEach(async () => {
  server = await startFakeUpstream(KEY);
});
afterEach(async () => {
  await server.close();
});

describe('UpstreamSource', () => {
  it('forwards search with the Bearer key and maps the results', async () => {
    const found = await make().search({ track: 'Money', artist: 'Pink Floyd', limit: 3 }, ctx());
    expect(found[0]).toMatchObject({ trackName: 'Money', audio: { source: 'upstream', locator: 'bc24aaa5a97c70ed' } });
    const req = server.requests[0]!;
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(Object.fromEntries(req.query)).toEqual({ track: 'Money', artist: 'Pink Floyd', limit: '3' });
  });

  it('fetches the remote analysis with artist and track, as a stored analysis', async () => {
    const stored = await make().fetchAnalysis(money, ctx());
    expect(stored).toMatchObject({ trackKey: 'bc24aaa5a97c70ed', source: 'upstream', features: { tempo: 123.2, key: 11 } });
    expect(server.requests[0]?.query.get('artist')).toBe('Pink Floyd');
    expect(server.requests[0]?.query.get('track')).toBe('Money');
  });

  it('when the remote analysis is not ready (202), then it asks again after Retry-After', async () => {
    let calls = 0;
    server.route('/api/audio/analysis/bc24aaa5a97c70ed', (_req, res) =>
      ++calls < 3
        ? sendJson(res, 202, sourceFixture('upstream/analysis-pending.json'), { 'retry-after': '1' })
        : sendJson(res, 200, sourceFixture('upstream/analysis-money.json')),
    );
    await expect(make().fetchAnalysis(money, ctx())).resolves.toMatchObject({ features: { tempo: 123.2 } });
    expect(calls).toBe(3);
  });

  it('when the remote analysis stays pending past the caller\'s deadline, then UPSTREAM_TIMEOUT', async () => {
    server.route('/api/audio/analysis/bc24aaa5a97c70ed', (_req, res) =>
      sendJson(res, 202, sourceFixture('upstream/analysis-pending.json'), { 'retry-after': '1' }),
    );
    const controller = new AbortController();
    const pending = make().fetchAnalysis(money, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });

  it('passes the remote server\'s own error codes on (404 TRACK_NOT_FOUND)', async () => {
    await expect(make().fetchAnalysis({ ...money, audio: { source: 'upstream', locator: '0000000000000000' } }, ctx())).rejects.toMatchObject({
      code: 'TRACK_NOT_FOUND',
      message: expect.stringMatching(/^upstream: /),
    });
  });

  it('when the key is refused, then UPSTREAM_UNAVAILABLE that names the variable, and the key is never logged', async () => {
    const lines: string[] = [];
    const capture = (obj: object, msg?: string): void => {
      lines.push(JSON.stringify(obj, (_k, v: unknown) => (v instanceof Error ? { message: v.message, stack: v.stack } : v)) + (msg ?? ''));
    };
    const logger: Logger = { debug: capture, info: capture, warn: capture, error: capture };
    const error = await make('wrong-secret-123', logger).search({ track: 'Money', limit: 3 }, ctx()).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: expect.stringContaining('UPSTREAM_API_KEY') });
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('wrong-secret-123');
    expect(lines.join('\n')).not.toContain('wrong-secret-123');
  });

  it('when the remote answers an analysis without the contract fields, then UPSTREAM_INVALID', async () => {
    server.route('/api/audio/analysis/bc24aaa5a97c70ed', (_req, res) => sendJson(res, 200, { success: true, data: { tempo: 'fast' } }));
    await expect(make().fetchAnalysis(money, ctx())).rejects.toMatchObject({ code: 'UPSTREAM_INVALID' });
  });

  describe('records outside the contract', () => {
    const good = sourceFixture<{ success: true; data: Record<string, unknown> }>('upstream/analysis-money.json');
    const answering = (data: unknown): void => {
      server.route('/api/audio/analysis/bc24aaa5a97c70ed', (_req, res) => sendJson(res, 200, { success: true, data }));
    };

    it.each([
      ['tempo: -1e300, energy: 1e300, timeSignature: -7', { tempo: -1e300, energy: 1e300, timeSignature: -7 }],
      ['a tempo above 500 BPM', { tempo: 9000 }],
      ['a key of -1', { key: -1 }],
      ['a mood score of 2', { mood: { happy: 2, sad: 0, relaxed: 0, aggressive: 0 } }],
      ['a fractional duration_ms', { duration_ms: 1.5 }],
      ['an artist with control characters', { artist: 'Pink\u001b[2JFloyd' }],
    ])('when the analysis has %s, then UPSTREAM_INVALID naming the field', async (_label, change) => {
      answering({ ...good.data, ...change });
      const error = await make().fetchAnalysis(money, ctx()).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'UPSTREAM_INVALID', message: expect.stringContaining(Object.keys(change)[0]!) });
    });

    it('one bad record does not open the circuit: the next answer is fetched and stored', async () => {
      const source = new UpstreamSource({ baseUrl: `${server.url}/api`, apiKey: KEY, timeoutMs: 2000, retry: { retries: 0 } }, silentLogger);
      answering({ ...good.data, tempo: -1e300, energy: 1e300, timeSignature: -7 });
      await expect(source.fetchAnalysis(money, ctx())).rejects.toMatchObject({ code: 'UPSTREAM_INVALID' });
      answering(good.data);
      await expect(source.fetchAnalysis(money, ctx())).resolves.toMatchObject({ features: { tempo: 123.2 } });
      expect(server.count('/api/audio/analysis/')).toBe(2);
      await source.close();
    });

    it('a field beyond the contract that is out of range is dropped for its neutral value, the record kept', async () => {
      const beat = { start: -5, duration: 1e300, confidence: 9 };
      answering({ ...good.data, loudness: 1e6, confidence: { tempo: 3, key: 0, mode: 0, timeSignature: 0 }, timeline: { beats: [beat], bars: [], sections: [] } });
      const stored = await make().fetchAnalysis(money, ctx());
      expect(stored.features).toMatchObject({ tempo: 123.2, loudness: -23, confidence: { tempo: 0, key: 0 }, timeline: { beats: [] } });
    });

    it('when the answer is a 10 MB JSON body, then UPSTREAM_INVALID (SOURCE_MAX_JSON_BYTES), not AUDIO_UNDECODABLE', async () => {
      const huge = JSON.stringify({ success: true, data: { ...good.data, padding: 'x'.repeat(10 * 1024 * 1024) } });
      server.route('/api/audio/analysis/bc24aaa5a97c70ed', (_req, res) => sendJson(res, 200, huge));
      const error = await make().fetchAnalysis(money, ctx()).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'UPSTREAM_INVALID', message: expect.stringMatching(/larger than 2097152 bytes/) });
    });
  });
});
