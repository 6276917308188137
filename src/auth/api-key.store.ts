import { sql } from 'kysely';
import type { Database } from '../db/database';

/** A key as it is stored: its SHA-256 hash, never the key itself. */
export interface StoredApiKey {
  id: string;
  name: string;
  /** sha256 hex of the key. */
  keyHash: string;
  /** `read` or `admin`. */
  scope: string;
  /** Who made it: `cli`, `api` or `first-run`. */
  source: string;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601 time from which the key is refused; null: never. */
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A stored key as it is listed: without its hash, with when it was last used. */
export type ListedApiKey = Omit<StoredApiKey, 'keyHash'> & { lastUsedAt: string | null };

/** What checking a presented key needs of a key that is not revoked. */
export type ActiveApiKey = Pick<StoredApiKey, 'id' | 'name' | 'keyHash' | 'scope' | 'expiresAt'>;

/**
 * The stored API keys and when each key was last used (keys of API_KEYS and ADMIN_API_KEYS
 * included: their last use is kept by id though the keys themselves are not stored).
 */
export interface ApiKeyStore {
  /** Stores a new key; its id and its hash are unique. */
  insert(key: StoredApiKey): Promise<void>;
  /**
   * Stores `key` only when no key at all is stored, revoked ones included, and says whether it
   * did. Of several processes trying at once on one database, one stores its key.
   */
  insertIfNone(key: StoredApiKey): Promise<boolean>;
  /** The keys not revoked, with their hashes: what a presented key is compared with. */
  active(): Promise<ActiveApiKey[]>;
  /** Every stored key, revoked ones included, by creation time then id, with its last use. */
  list(): Promise<ListedApiKey[]>;
  /** When each of these key ids was last used, for the ids with a recorded use. */
  lastUses(keyIds: readonly string[]): Promise<Map<string, string>>;
  /** Revokes the key `id` at `at`; false when no key of that id is active (unknown, or revoked already: its time is kept). */
  revoke(id: string, at: string): Promise<boolean>;
  /** Revokes at `at` every active key whose id or name is `idOrName`; the ids revoked. */
  revokeByIdOrName(idOrName: string, at: string): Promise<string[]>;
  /** Records last uses (key id → ISO-8601 time) in one statement; a later time already recorded is kept. */
  recordLastUses(uses: ReadonlyMap<string, string>): Promise<void>;
}

/** The tables api_keys and api_key_last_used (migrations 0001 and 0005) on SQLite or Postgres. */
export class SqlApiKeyStore implements ApiKeyStore {
  constructor(private readonly database: Pick<Database, 'db' | 'dialect'>) {}

  async insert(key: StoredApiKey): Promise<void> {
    await this.database.db.insertInto('api_keys').values(rowOf(key)).execute();
  }

  async insertIfNone(key: StoredApiKey): Promise<boolean> {
    const row = rowOf(key);
    const { dialect } = this.database;
    return this.database.db.transaction().execute(async (trx) => {
      // Postgres: nodes starting together take turns, so the second sees the first one's key.
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('trackgraph:first-api-key'))`.execute(trx);
      // One statement: on SQLite the check and the insert cannot be split by another writer.
      const result = await trx
        .insertInto('api_keys')
        .columns(['id', 'name', 'key_hash', 'created_at', 'revoked_at', 'scope', 'expires_at', 'source'])
        .expression(
          trx
            .selectNoFrom((eb) => [
              eb.val(row.id).as('id'),
              eb.val(row.name).as('name'),
              eb.val(row.key_hash).as('key_hash'),
              eb.val(row.created_at).as('created_at'),
              eb.val<string | null>(row.revoked_at).as('revoked_at'),
              eb.val(row.scope).as('scope'),
              eb.val<string | null>(row.expires_at).as('expires_at'),
              eb.val(row.source).as('source'),
            ])
            .where((eb) => eb.not(eb.exists(eb.selectFrom('api_keys').select('id')))),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    });
  }

  async active(): Promise<ActiveApiKey[]> {
    const rows = await this.database.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'key_hash', 'scope', 'expires_at'])
      .where('revoked_at', 'is', null)
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, keyHash: r.key_hash, scope: r.scope, expiresAt: r.expires_at }));
  }

  async list(): Promise<ListedApiKey[]> {
    const rows = await this.database.db
      .selectFrom('api_keys')
      .leftJoin('api_key_last_used', 'api_key_last_used.key_id', 'api_keys.id')
      .select(['id', 'name', 'scope', 'source', 'created_at', 'expires_at', 'revoked_at', 'api_key_last_used.last_used_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      scope: r.scope,
      source: r.source,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      revokedAt: r.revoked_at,
      lastUsedAt: r.last_used_at,
    }));
  }

  async lastUses(keyIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (keyIds.length === 0) return found;
    const rows = await this.database.db
      .selectFrom('api_key_last_used')
      .select(['key_id', 'last_used_at'])
      .where('key_id', 'in', [...keyIds])
      .execute();
    for (const r of rows) found.set(r.key_id, r.last_used_at);
    return found;
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revokeByIdOrName(idOrName: string, at: string): Promise<string[]> {
    const rows = await this.database.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async recordLastUses(uses: ReadonlyMap<string, string>): Promise<void> {
    if (uses.size === 0) return;
    await this.database.db
      .insertInto('api_key_last_used')
      .values([...uses].map(([key_id, last_used_at]) => ({ key_id, last_used_at })))
      .onConflict((oc) =>
        oc
          .column('key_id')
          .doUpdateSet((eb) => ({ last_used_at: eb.ref('excluded.last_used_at') }))
          .where('api_key_last_used.last_used_at', '<', (eb) => eb.ref('excluded.last_used_at')),
      )
      .execute();
  }
}

function rowOf(key: StoredApiKey) {
  return {
    id: key.id,
    name: key.name,
    key_hash: key.keyHash,
    scope: key.scope,
    source: key.source,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    revoked_at: key.revokedAt,
  };
}
