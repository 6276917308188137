import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../../src/config';
import { FIRST_KEY_FILE, startServer, type RunningServer } from '../../../src/main';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { captureLogs } from '../../helpers/log-capture';

/** Starts the API as `npm start` does, on port 0, with what it prints and logs captured. */
async function start(dir: string, env: Record<string, string> = {}, terminal = true) {
  const printed: string[] = [];
  const logs = captureLogs('info');
  const config = loadConfig({
    DATA_DIR: path.join(dir, 'data'),
    LIBRARY_DIR: path.join(dir, 'library'),
    LIBRARY_WATCH: 'false',
    ANALYSIS_WORKERS: '1',
    PORT: '0',
    PUBLIC_URL: 'http://trackgraph.test',
    ...env,
  });
  const running = await startServer(config, { terminal, out: (text) => printed.push(text), container: { engine: new FakeEngine(), logger: logs.logger } });
  return { running, printed, logs };
}

async function stop(running: RunningServer): Promise<void> {
  running.server.closeAllConnections();
  await new Promise((resolve) => running.server.close(resolve));
  await running.stopHttp();
  await running.container.close();
}

describe('the first start of a server without any key', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-first-'));
    await mkdir(path.join(dir, 'library'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('makes an admin key, prints it once with how to use it, stores only its hash, logs only its id, and never makes another', async () => {
    const first = await start(dir);
    let key: string;
    try {
      expect(first.printed).toHaveLength(1);
      const notice = first.printed[0]!;
      key = /^ {4}(tg_[\w-]{40,})$/m.exec(notice)![1]!;
      expect(notice).toContain(`curl -H "Authorization: Bearer ${key}" "http://trackgraph.test/api/audio/search?track=Money"`);
      expect(notice).toMatch(/npm run apikey -- create --name my-app/);
      expect(notice).toContain('http://trackgraph.test/api/keys');

      // The key is an admin key: it lists the keys, itself among them.
      const listed = await request(`http://127.0.0.1:${first.running.port}`).get('/api/keys').set('Authorization', `Bearer ${key}`).expect(200);
      expect((listed.body as { data: { name: string; scope: string; source: string }[] }).data).toEqual([
        expect.objectContaining({ name: 'first admin key', scope: 'admin', source: 'first-run' }),
      ]);
      const rows = await first.running.container.database.db.selectFrom('api_keys').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(first.logs.text()).not.toContain(key);
      expect(first.logs.lines.some((l) => l.msg === 'first admin key made and printed to the terminal')).toBe(true);
    } finally {
      await stop(first.running);
    }

    // The next start finds a key stored: nothing is made or printed, and the key still works.
    const second = await start(dir);
    try {
      expect(second.printed).toEqual([]);
      await request(`http://127.0.0.1:${second.running.port}`).get('/api/keys').set('Authorization', `Bearer ${key}`).expect(200);
      expect(await second.running.container.database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(1);
    } finally {
      await stop(second.running);
    }
  });

  it('when stdout is not a terminal (a log), writes the notice to a file only its owner reads, and logs where, never the key', async () => {
    const { running, printed, logs } = await start(dir, {}, false);
    try {
      expect(printed).toEqual([]);
      const file = path.join(dir, 'data', FIRST_KEY_FILE);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const key = /^ {4}(tg_[\w-]{40,})$/m.exec(await readFile(file, 'utf8'))![1]!;
      await request(`http://127.0.0.1:${running.port}`).get('/api/keys').set('Authorization', `Bearer ${key}`).expect(200);
      expect(logs.text()).not.toContain(key);
      expect(logs.lines.some((l) => l.file === file && /written to/.test(String(l.msg)))).toBe(true);
    } finally {
      await stop(running);
    }
  });

  it.each([
    ['API_KEYS', { API_KEYS: 'a-read-key-0123456789' }],
    ['ADMIN_API_KEYS', { ADMIN_API_KEYS: 'an-admin-key-0123456789' }],
  ])('makes none when %s lists a key', async (_name, env) => {
    const { running, printed } = await start(dir, env);
    try {
      expect(printed).toEqual([]);
      expect(await running.container.database.db.selectFrom('api_keys').select('id').execute()).toEqual([]);
    } finally {
      await stop(running);
    }
  });
});
