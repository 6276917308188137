import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Client } from 'pg';

/**
 * The environment of server processes scaled out on Postgres and Redis, in a schema and key
 * prefix of their own (`tg_<label>_<random>`), and `cleanup` to drop both afterwards.
 */
export function scaledEnvironment(label: string, databaseUrl: string, redisUrl: string): { env: Record<string, string>; cleanup(): Promise<void> } {
  const name = `tg_${label}_${randomBytes(4).toString('hex')}`;
  return {
    env: { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: name, CACHE_URL: redisUrl, QUEUE_URL: redisUrl, REDIS_PREFIX: name },
    async cleanup() {
      const pg = new Client({ connectionString: databaseUrl });
      await pg.connect();
      try {
        await pg.query(`drop schema if exists "${name}" cascade`);
      } finally {
        await pg.end();
      }
      const redis = new Redis(redisUrl);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${name}*`, 'COUNT', 500);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
