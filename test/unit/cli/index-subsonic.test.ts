import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { runIndexCli } from '../../../src/cli/index-library';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { SUBSONIC_PASSWORD, SUBSONIC_USER, startFakeSubsonic, type FakeSubsonic } from '../../fixtures/sources/subsonic';
import { textSink } from '../../helpers/log-capture';

/* npm run index -- --source subsonic against a recorded-shape Subsonic server (Navidrome's answers). */

describe('npm run index -- --source subsonic', () => {
  let dir: string;
  let server: FakeSubsonic;
  let engine: FakeEngine;

  const run = async (args: string[] = ['--source', 'subsonic'], env: Record<string, string> = {}) => {
    const lines: string[] = [];
    const progress = textSink();
    const status = await runIndexCli(args, {
      out: (line) => lines.push(line),
      progress: progress.stream,
      env: {
        DATA_DIR: path.join(dir, 'data'),
        CACHE_URL: `sqlite://${path.join(dir, 'data', 'cache.sqlite')}`,
        ANALYSIS_WORKERS: '1',
        LOG_LEVEL: 'silent',
        SUBSONIC_URL: server.url,
        SUBSONIC_USER,
        SUBSONIC_PASSWORD,
        SOURCE_TIMEOUT_MS: '2000',
        ...env,
      },
      overrides: { engine, logger: pino({ level: 'silent' }) },
    });
    return { status, lines, progress: progress.text() };
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-index-subsonic-'));
    server = await startFakeSubsonic();
    engine = new FakeEngine();
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('analyses every song read through the API, then skips what is analysed and unchanged, and analyses again a song whose file changed (its size)', async () => {
    const first = await run();
    expect(first.lines).toEqual([`subsonic ${server.url}: 3 songs, 0 already stored, 3 analysed, 0 re-analysed (changed on the server), 0 failed`]);
    expect(first.status).toBe(0);
    expect(first.progress).toMatch(/indexing \|.*\| 3\/3 songs/);
    expect(engine.analyseCalls).toBe(3);
    expect(server.count('/rest/stream')).toBe(3);

    const second = await run();
    expect(second.lines).toEqual([`subsonic ${server.url}: 3 songs, 3 already stored, 0 analysed, 0 re-analysed (changed on the server), 0 failed`]);
    expect(engine.analyseCalls).toBe(3);
    expect(server.count('/rest/stream')).toBe(3);

    server.songs[0]!.size = 9_999_999;
    const third = await run();
    expect(third.lines).toEqual([`subsonic ${server.url}: 3 songs, 2 already stored, 0 analysed, 1 re-analysed (changed on the server), 0 failed`]);
    expect(engine.analyseCalls).toBe(4);
  });

  it('songs gone between the listing and their analysis fail as TRACK_NOT_FOUND, each named, and nothing of them is stored (exit 1)', async () => {
    server.route('/rest/stream.view', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ 'subsonic-response': { status: 'failed', version: '1.16.1', error: { code: 70, message: 'The requested data was not found' } } }));
    });
    const out = await run();
    expect(out.status).toBe(1);
    expect(out.lines[0]).toBe(`subsonic ${server.url}: 3 songs, 0 already stored, 0 analysed, 0 re-analysed (changed on the server), 3 failed`);
    expect(out.lines[1]).toMatch(/^ {2}failed: ABBA - Money, Money, Money \(7c41d2e0a9b34d3f8e6a1b2c3d4e5f60\): TRACK_NOT_FOUND: "ABBA - Money, Money, Money" is no longer on the Subsonic server/);
    expect(engine.analyseCalls).toBe(0);
    // Nothing of them was stored: a second run finds none of them analysed.
    const again = await run();
    expect(again.lines[0]).toBe(`subsonic ${server.url}: 3 songs, 0 already stored, 0 analysed, 0 re-analysed (changed on the server), 3 failed`);
  });

  it('wrong credentials or an unreachable server: one line saying what to check, exit 1, and never the password', async () => {
    const refused = await run(['--source', 'subsonic'], { SUBSONIC_PASSWORD: 'not-the-password' });
    expect(refused.status).toBe(1);
    expect(refused.lines).toEqual([expect.stringMatching(new RegExp(`^subsonic ${server.url}: source subsonic refused the credentials \\(error 40: Wrong username or password\\); check SUBSONIC_USER and SUBSONIC_PASSWORD$`))]);
    expect(refused.lines.join('\n')).not.toContain('not-the-password');
    const url = server.url;
    await server.close();
    const down = await run(['--source', 'subsonic'], { SUBSONIC_URL: url });
    expect(down.status).toBe(1);
    expect(down.lines).toEqual([expect.stringMatching(new RegExp(`^subsonic ${url}: ${url} could not be reached .*check SUBSONIC_URL and that the server is up$`))]);
    server = await startFakeSubsonic();
  });

  it('--write-tags does not apply: said, nothing done, exit 2; a folder or an unknown source is a usage error', async () => {
    const tags = await run(['--source', 'subsonic', '--write-tags']);
    expect(tags).toMatchObject({ status: 2, lines: [expect.stringMatching(/^--write-tags does not apply to --source subsonic: the files are the Subsonic server's/)] });
    expect(server.requests).toHaveLength(0);
    expect((await run(['--source', 'subsonic', '/music'])).status).toBe(2);
    const unknown = await run(['--source', 'spotify']);
    expect(unknown.status).toBe(2);
    expect(unknown.lines[0]).toMatch(/^--source must be library or subsonic, not "spotify"/);
  });
});
