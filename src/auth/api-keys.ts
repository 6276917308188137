import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../core/errors';
import type { DatabaseSchema } from '../db/database';

export interface Principal {
  /** Key id ("env:N" for keys from API_KEYS); safe to log, unlike the key. */
  id: string;
  name: string;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  createdAt: string;
  revokedAt: string | null;
}

// One-shot digest: about half the cost of createHash().update().digest() for a short key.
const hash = (key: string): Buffer => digest('sha256', key, 'buffer');

/**
 * API keys: those in API_KEYS and those created with the CLI. Only SHA-256 hashes are kept (in
 * memory and in the database); a presented key is hashed and compared in constant time with every
 * known hash. Keys created or revoked by the CLI are picked up within `refreshMs`.
 */
export class ApiKeyService {
  private known: { hash: Buffer; principal: Principal }[] = [];
  private loadedAt = 0;
  private loading: Promise<void> | undefined;
  private readonly envKeys: { hash: Buffer; principal: Principal }[];

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    envKeys: readonly string[],
    private readonly refreshMs = 10_000,
  ) {
    this.envKeys = envKeys.map((k, i) => ({ hash: hash(k), principal: { id: `env:${i + 1}`, name: 'API_KEYS' } }));
  }

  async verify(presented: string): Promise<Principal | undefined> {
    if (this.stale()) await this.reload();
    return this.match(presented);
  }

  /** True when the keys created or revoked by the CLI must be read again before `match`. */
  stale(): boolean {
    return Date.now() - this.loadedAt > this.refreshMs;
  }

  /** `verify` against the keys as last loaded, without reloading: callers check `stale()` first. */
  match(presented: string): Principal | undefined {
    const candidate = hash(presented);
    let match: Principal | undefined;
    // Visit every entry whatever matches, so timing says nothing about which key was close.
    for (const entries of [this.envKeys, this.known]) {
      for (const entry of entries) {
        if (timingSafeEqual(entry.hash, candidate) && !match) match = entry.principal;
      }
    }
    return match;
  }

  /** Creates a key; the key itself is returned once and never stored. */
  async create(name: string): Promise<{ id: string; key: string }> {
    const id = randomBytes(6).toString('hex');
    const key = `tg_${randomBytes(32).toString('base64url')}`;
    await this.db
      .insertInto('api_keys')
      .values({ id, name, key_hash: hash(key).toString('hex'), created_at: new Date().toISOString(), revoked_at: null })
      .execute();
    this.loadedAt = 0;
    return { id, key };
  }

  async list(): Promise<ApiKeyInfo[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
    return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, revokedAt: r.revoked_at }));
  }

  /** Revokes by id or by name; returns how many keys were revoked. */
  async revoke(idOrName: string): Promise<number> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    this.loadedAt = 0;
    return Number(result.numUpdatedRows);
  }

  private async reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const rows = await this.db
          .selectFrom('api_keys')
          .select(['id', 'name', 'key_hash'])
          .where('revoked_at', 'is', null)
          .execute();
        this.known = rows.map((r) => ({ hash: Buffer.from(r.key_hash, 'hex'), principal: { id: r.id, name: r.name } }));
        this.loadedAt = Date.now();
      } catch (error) {
        // With the database away, keep accepting the keys known so far and retry soon; with
        // none known yet, the client is told to retry rather than that its key is wrong.
        if (this.loadedAt === 0) {
          throw new AppError('SERVICE_UNAVAILABLE', 'API keys cannot be checked right now; try again shortly', {
            cause: error,
            retryAfterS: 5,
          });
        }
        this.loadedAt = Date.now() - this.refreshMs + 2000;
      } finally {
        this.loading = undefined;
      }
    })();
    await this.loading;
  }
}
