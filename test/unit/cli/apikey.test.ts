import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SqlApiKeyStore } from '../../../src/auth/api-key.store';
import { ApiKeyService, type Principal } from '../../../src/auth/api-keys';
import { runApiKeyCli } from '../../../src/cli/apikey';
import { openDatabase } from '../../../src/db/database';

/** The principal a server reading the stored keys now accepts the key as, if any. */
async function accepted(keys: ApiKeyService, key: string): Promise<Principal | undefined> {
  await keys.ensureFresh();
  return keys.recheck(key);
}

describe('npm run apikey', () => {
  let dir: string;
  const saved = process.env.DATA_DIR;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-cli-'));
    process.env.DATA_DIR = dir;
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = saved;
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runApiKeyCli(args, (l) => lines.push(l));
    return { code, lines };
  };

  it('create prints a key once that the server then accepts; list never shows it; revoke stops it', async () => {
    const created = await run('create', '--name', 'ci');
    expect(created.code).toBe(0);
    const key = created.lines[1]!;
    expect(key).toMatch(/^tg_[\w-]{40,}$/);

    const database = openDatabase(undefined, dir);
    const service = new ApiKeyService(new SqlApiKeyStore(database), { refreshMs: 0 });
    try {
      expect(await accepted(service, key)).toMatchObject({ name: 'ci' });

      const listed = await run('list');
      expect(listed.lines.join('\n')).toContain('ci');
      expect(listed.lines.join('\n')).not.toContain(key);

      expect((await run('revoke', 'ci')).code).toBe(0);
      expect(await accepted(service, key)).toBeUndefined();
    } finally {
      await database.db.destroy();
    }
  });

  it('creates an admin key with an expiry, which list shows with its scope, source and expiry', async () => {
    const created = await run('create', '--name', 'ops', '--scope', 'admin', '--expires', '2999-01-01');
    expect(created.code).toBe(0);
    expect(created.lines[0]).toMatch(/^created admin key [0-9a-f]{12} \(ops\), expiring 2999-01-01T00:00:00.000Z/);
    const key = created.lines[1]!;
    const listed = (await run('list')).lines.join('\n');
    expect(listed).toMatch(/ops {2}admin {2}cli {2}created \S+ {2}expires 2999-01-01T00:00:00.000Z {2}never used/);
    expect(listed).not.toContain(key);

    const database = openDatabase(undefined, dir);
    try {
      expect(await accepted(new ApiKeyService(new SqlApiKeyStore(database)), key)).toMatchObject({ name: 'ops', scope: 'admin', expiresAt: '2999-01-01T00:00:00.000Z' });
    } finally {
      await database.db.destroy();
    }
  });

  it.each([
    [['--scope', 'root'], /--scope is read or admin/],
    [['--expires', 'soon'], /^--expires must be a date/],
    [['--expires', '2001-01-01'], /^--expires must be in the future/],
  ])('refuses create %j with status 2 and a message', async (args, message) => {
    const { code, lines } = await run('create', '--name', 'x', ...args);
    expect(code).toBe(2);
    expect(lines.join('\n')).toMatch(message);
  });

  it('refuses create without a name and an unknown command', async () => {
    expect((await run('create')).code).toBe(2);
    expect((await run('explode')).code).toBe(2);
  });

  it('revoking an unknown key fails', async () => {
    expect((await run('revoke', 'nobody')).code).toBe(1);
  });
});
