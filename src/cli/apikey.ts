import '../entry';
import { parseArgs } from 'node:util';
import { SqlApiKeyStore } from '../auth/api-key.store';
import { API_KEY_SCOPES, ApiKeyService, type ApiKeyInfo, type ApiKeyScope } from '../auth/api-keys';
import { RedisKeyChangeChannel } from '../auth/key-changes.channel';
import { AppError } from '../core/errors';
import { silentLogger } from '../core/logger';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrations';
import { SharedRedis, sharedRedisUrl } from '../ops/redis';

const USAGE = `usage: npm run apikey -- <command>
  create --name <name> [--scope read|admin] [--expires <date>]
                         create a key; it is printed once and only its hash is stored.
                         read (the default): the API; admin: also keys, webhooks and usage.
                         --expires 2030-01-01 (from the start of that day, UTC) or 2030-01-01T12:00:00Z.
                         Servers accept it at once with Redis configured (CACHE_URL or QUEUE_URL), else within 10 s
  list                   list keys (id, name, scope, source, created, expires, last used, revoked),
                         those of API_KEYS and ADMIN_API_KEYS too — never the keys themselves
  revoke <id|name>       revoke stored keys by id or by name (with Redis configured, every server
                         refuses them at once; otherwise within 10 s)`;

/** One line of `list`. */
function line(k: ApiKeyInfo): string {
  return [
    k.id,
    k.name,
    k.scope,
    k.source,
    `created ${k.createdAt}`,
    k.expiresAt ? `expires ${k.expiresAt}` : 'never expires',
    k.lastUsedAt ? `last used ${k.lastUsedAt}` : 'never used',
    ...(k.revokedAt ? [`revoked ${k.revokedAt}`] : []),
  ].join('  ');
}

/** Manages API keys in the database DATABASE_URL names (the same one the server uses). */
export async function runApiKeyCli(argv: string[], out: (line: string) => void): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      scope: { type: 'string' },
      expires: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, arg] = positionals;
  if (values.help || !command) {
    out(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  const database = openDatabase(config.DATABASE_URL, config.dataDir, config.DATABASE_SCHEMA);
  const redisUrl = sharedRedisUrl(config);
  const redis = (command === 'revoke' || command === 'create') && redisUrl ? new SharedRedis(redisUrl, silentLogger, `${config.REDIS_PREFIX}:cli`) : undefined;
  const changes = redis ? new RedisKeyChangeChannel(redis, config.REDIS_PREFIX) : undefined;
  try {
    await migrateToLatest(database);
    const keys = new ApiKeyService(new SqlApiKeyStore(database), {
      envKeys: { read: config.API_KEYS, admin: config.ADMIN_API_KEYS },
      ...(changes ? { changes } : {}),
    });
    switch (command) {
      case 'create': {
        const name = values.name?.trim();
        if (!name) {
          out('create needs --name <name>');
          return 2;
        }
        const scope = values.scope ?? 'read';
        if (!(API_KEY_SCOPES as readonly string[]).includes(scope)) {
          out('--scope is read or admin');
          return 2;
        }
        try {
          const { key, info } = await keys.create({ name, scope: scope as ApiKeyScope, expiresAt: values.expires ?? null, source: 'cli' });
          out(`created ${info.scope} key ${info.id} (${info.name})${info.expiresAt ? `, expiring ${info.expiresAt}` : ''}; store it now, it is not shown again:`);
          out(key);
          return 0;
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'INVALID_ARGUMENT') throw error;
          out(error.message.replace(/^expiresAt/, '--expires'));
          return 2;
        }
      }
      case 'list': {
        const all = await keys.list();
        if (all.length === 0) out('no keys');
        for (const k of all) out(line(k));
        return 0;
      }
      case 'revoke': {
        if (!arg) {
          out('revoke needs an id or a name');
          return 2;
        }
        const ids = await keys.revokeByIdOrName(arg);
        out(ids.length > 0 ? `revoked ${ids.length} key(s): ${ids.join(', ')}` : `no active stored key with id or name ${arg}`);
        return ids.length > 0 ? 0 : 1;
      }
      default:
        out(USAGE);
        return 2;
    }
  } finally {
    await changes?.close();
    redis?.close();
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
