import { parseArgs } from 'node:util';
import { ApiKeyService } from '../auth/api-keys';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrations';

const USAGE = `usage: npm run apikey -- <command>
  create --name <name>   create a key; it is printed once and only its hash is stored
  list                   list keys (id, name, created, revoked) — never the keys themselves
  revoke <id|name>       revoke a key by id or by name`;

/** Manages API keys in the database DATABASE_URL names (the same one the server uses). */
export async function runApiKeyCli(argv: string[], out: (line: string) => void): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, arg] = positionals;
  if (values.help || !command) {
    out(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  const database = openDatabase(config.DATABASE_URL, config.dataDir, config.DATABASE_SCHEMA);
  try {
    await migrateToLatest(database);
    const keys = new ApiKeyService(database.db, []);
    switch (command) {
      case 'create': {
        const name = values.name?.trim();
        if (!name) {
          out('create needs --name <name>');
          return 2;
        }
        const { id, key } = await keys.create(name);
        out(`created key ${id} (${name}); store it now, it is not shown again:`);
        out(key);
        return 0;
      }
      case 'list': {
        const all = await keys.list();
        if (all.length === 0) out('no keys (keys from API_KEYS are not listed)');
        for (const k of all) out(`${k.id}  ${k.name}  created ${k.createdAt}${k.revokedAt ? `  revoked ${k.revokedAt}` : ''}`);
        return 0;
      }
      case 'revoke': {
        if (!arg) {
          out('revoke needs an id or a name');
          return 2;
        }
        const n = await keys.revoke(arg);
        out(n > 0 ? `revoked ${n} key(s)` : `no active key with id or name ${arg}`);
        return n > 0 ? 0 : 1;
      }
      default:
        out(USAGE);
        return 2;
    }
  } finally {
    await database.close();
  }
}

if (require.main === module) {
  runApiKeyCli(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`))
    .then((code) => {
      process.exitCode = code;
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
}
