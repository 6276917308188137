import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { AppError, invalidArgument } from '../core/errors';
import type { Logger } from '../core/logger';
import { silentLogger } from '../core/logger';
import { tidyName } from '../core/name';
import type { ApiRequestListener } from '../core/observers';
import type { DatabaseSchema } from '../db/database';
import type { KeyChange, KeyChangeChannel } from './key-changes.channel';

export const API_KEY_SCOPES = ['read', 'admin'] as const;
/** `read`: the API. `admin`: the API, and keys, webhooks and every key's usage. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * Where a key comes from: the two environment lists, or the database, made by the CLI, through
 * the API, or by the first start of a server that had no key at all.
 */
export type ApiKeySource = 'API_KEYS' | 'ADMIN_API_KEYS' | 'cli' | 'api' | 'first-run';
const STORED_SOURCES = new Set<string>(['cli', 'api', 'first-run']);

/** Who a request's key belongs to, as the edges and services see it. Never holds the key. */
export interface Principal {
  /** Key id ("env:N" for API_KEYS, "env-admin:N" for ADMIN_API_KEYS); safe to log, unlike the key. */
  id: string;
  name: string;
  scope: ApiKeyScope;
  /** ISO-8601 time from which the key is refused; null: never. */
  expiresAt: string | null;
}

/** Whether a key may act on every key's resources (keys, webhooks, usage), not only its own: an admin key. */
export function isAdmin(principal: Principal): boolean {
  return principal.scope === 'admin';
}

/** FORBIDDEN unless the principal's key has the admin scope; `what` says what was asked ("creating keys"). */
export function requireAdmin(principal: Principal | undefined, what: string): void {
  if (!principal || !isAdmin(principal)) {
    throw new AppError('FORBIDDEN', `${what} needs an admin key; this key's scope is ${principal?.scope ?? 'none'}`);
  }
}

/** A key as it is listed: never the key itself, nor its hash. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  scope: ApiKeyScope;
  source: ApiKeySource;
  /** ISO-8601. Keys from the environment: when this process started. */
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface NewApiKey {
  name: string;
  scope?: ApiKeyScope;
  /** ISO-8601 time (or a Date) from which the key is refused; it must be in the future. */
  expiresAt?: string | Date | null;
  source?: 'cli' | 'api' | 'first-run';
}

/** Longest key name accepted. */
export const MAX_KEY_NAME_LENGTH = 100;

export interface ApiKeyServiceOptions {
  /** Keys of API_KEYS (read) and ADMIN_API_KEYS (admin). */
  envKeys?: { read?: readonly string[]; admin?: readonly string[] };
  /** Stored keys are read again after this long (keys made or revoked elsewhere, e.g. by the CLI). */
  refreshMs?: number;
  /** Tells every node of a key made or revoked at once (Redis); without it, other nodes learn of it within refreshMs. */
  changes?: KeyChangeChannel;
  /** Told of every authenticated request (usage). */
  requestListeners?: readonly ApiRequestListener[];
  logger?: Logger;
  /** The clock (tests). */
  now?: () => number;
}

interface Entry {
  hash: Buffer;
  principal: Principal;
  /** principal.expiresAt as epoch ms; Infinity: never. */
  expiresAtMs: number;
}

// One-shot digest: about half the cost of createHash().update().digest() for a short key.
const hash = (key: string): Buffer => digest('sha256', key, 'buffer');

const iso = (ms: number): string => new Date(ms).toISOString();

/** How a principal's key compares with a presented one. */
export type KeyMatch = { principal: Principal; expired: boolean };

/**
 * API keys: those of API_KEYS and ADMIN_API_KEYS and those stored in the database (made with the
 * CLI, through the API, or on a first start). Only SHA-256 hashes are kept (in memory and in the
 * database); a presented key is hashed and compared in constant time with every known hash.
 *
 * Checking a key is synchronous against the keys as last loaded; they are read again after
 * `refreshMs`. A key made or revoked through this service is accepted or refused at once by this
 * process, and by every other process told through the key-change channel; one made or revoked
 * elsewhere without the channel (the CLI without Redis) within `refreshMs`. When each key was last used is remembered in memory and
 * written in batches (flushLastUsed), not once per request.
 */
export class ApiKeyService {
  private known: Entry[] = [];
  private loadedAt = 0;
  private loading: Promise<void> | undefined;
  private readonly envKeys: Entry[];
  private readonly envInfo: ApiKeyInfo[];
  /** Ids revoked while this process runs: refused even if a reload that began before brings them back. */
  private readonly revoked = new Set<string>();
  /** Last use per key id (epoch ms) not written yet. */
  private lastUsed = new Map<string, number>();
  private readonly refreshMs: number;
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly listeners: readonly ApiRequestListener[];

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly options: ApiKeyServiceOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? silentLogger;
    this.listeners = options.requestListeners ?? [];
    const startedAt = iso(this.now());
    const env = (keys: readonly string[] | undefined, scope: ApiKeyScope, source: 'API_KEYS' | 'ADMIN_API_KEYS', prefix: string) =>
      (keys ?? []).map((k, i) => ({
        entry: { hash: hash(k), principal: { id: `${prefix}:${i + 1}`, name: `${source} #${i + 1}`, scope, expiresAt: null }, expiresAtMs: Infinity },
        info: { id: `${prefix}:${i + 1}`, name: `${source} #${i + 1}`, scope, source, createdAt: startedAt, expiresAt: null, lastUsedAt: null, revokedAt: null },
      }));
    const all = [...env(options.envKeys?.admin, 'admin', 'ADMIN_API_KEYS', 'env-admin'), ...env(options.envKeys?.read, 'read', 'API_KEYS', 'env')];
    this.envKeys = all.map((e) => e.entry);
    this.envInfo = all.map((e) => e.info);
  }

  /** Listens for keys made or revoked on other nodes (when a channel was given). */
  async start(): Promise<void> {
    await this.options.changes?.subscribe((change) => this.changed(change));
  }

  /** True when the stored keys must be read again (ensureFresh) before `match` or `authenticate`. */
  stale(): boolean {
    return this.now() - this.loadedAt > this.refreshMs;
  }

  /** Reads the stored keys again if they are stale. */
  async ensureFresh(): Promise<void> {
    if (this.stale()) await this.reload();
  }

  /** The key's principal when it is known and not revoked (expired or not), against the keys as last loaded. */
  match(presented: string, now = this.now()): KeyMatch | undefined {
    const candidate = hash(presented);
    let match: Entry | undefined;
    // Visit every entry whatever matches, so timing says nothing about which key was close.
    for (const entries of [this.envKeys, this.known]) {
      for (const entry of entries) {
        if (timingSafeEqual(entry.hash, candidate) && !match) match = entry;
      }
    }
    if (!match || this.revoked.has(match.principal.id)) return undefined;
    return { principal: match.principal, expired: match.expiresAtMs <= now };
  }

  /**
   * The principal of a presented key, against the keys as last loaded (callers check `stale()`
   * first), counted as a use of the key; UNAUTHENTICATED for an unknown, revoked or expired key.
   * Synchronous and without I/O: it runs on every request.
   */
  authenticate(presented: string): Principal {
    const now = this.now();
    const found = this.match(presented, now);
    if (!found) throw new AppError('UNAUTHENTICATED', 'unknown or revoked API key');
    const { principal } = found;
    if (found.expired) throw new AppError('UNAUTHENTICATED', `this API key expired at ${principal.expiresAt}; ask an admin for a new one`);
    this.lastUsed.set(principal.id, now);
    for (const listener of this.listeners) listener.apiRequest(principal.id);
    return principal;
  }

  /** The principal of a usable key (known, not revoked, not expired) against the keys as last loaded; not counted as a use. */
  usable(presented: string): Principal | undefined {
    const found = this.match(presented);
    return found && !found.expired ? found.principal : undefined;
  }

  /** `usable`, reading the stored keys first if stale. */
  async verify(presented: string): Promise<Principal | undefined> {
    await this.ensureFresh();
    return this.usable(presented);
  }

  /** Creates a key; the key itself is returned once and never stored. */
  async create(input: NewApiKey): Promise<{ key: string; info: ApiKeyInfo }> {
    const row = this.newRow(input);
    const key = `tg_${randomBytes(32).toString('base64url')}`;
    await this.db.insertInto('api_keys').values({ ...row, key_hash: hash(key).toString('hex') }).execute();
    this.loadedAt = 0;
    await this.announce({ type: 'created', keyId: row.id });
    return { key, info: infoOf({ ...row, last_used_at: null }) };
  }

  /**
   * The first key of a server that has none: an admin key, made only when no key is configured
   * or stored (revoked ones included), so that it is made once. Undefined when keys exist.
   * On Postgres an advisory lock makes nodes starting together make one.
   */
  async createFirstKey(dialect: 'sqlite' | 'postgres'): Promise<{ key: string; info: ApiKeyInfo } | undefined> {
    if (this.envKeys.length > 0) return undefined;
    const row = this.newRow({ name: 'first admin key', scope: 'admin', source: 'first-run' });
    const key = `tg_${randomBytes(32).toString('base64url')}`;
    const inserted = await this.db.transaction().execute(async (trx) => {
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
              eb.val(hash(key).toString('hex')).as('key_hash'),
              eb.val(row.created_at).as('created_at'),
              eb.val<string | null>(null).as('revoked_at'),
              eb.val(row.scope).as('scope'),
              eb.val<string | null>(null).as('expires_at'),
              eb.val(row.source).as('source'),
            ])
            .where((eb) => eb.not(eb.exists(eb.selectFrom('api_keys').select('id')))),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    });
    if (!inserted) return undefined;
    this.loadedAt = 0;
    return { key, info: infoOf({ ...row, last_used_at: null }) };
  }

  /** Every key, those of the environment first, then the stored ones by creation; with when each was last used. */
  async list(): Promise<ApiKeyInfo[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .leftJoin('api_key_last_used', 'api_key_last_used.key_id', 'api_keys.id')
      .select(['id', 'name', 'scope', 'source', 'created_at', 'expires_at', 'revoked_at', 'api_key_last_used.last_used_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const envUsed = new Map<string, string>();
    if (this.envInfo.length > 0) {
      const used = await this.db
        .selectFrom('api_key_last_used')
        .select(['key_id', 'last_used_at'])
        .where('key_id', 'in', this.envInfo.map((k) => k.id))
        .execute();
      for (const u of used) envUsed.set(u.key_id, u.last_used_at);
    }
    return [
      ...this.envInfo.map((k) => ({ ...k, lastUsedAt: this.latestUse(k.id, envUsed.get(k.id) ?? null) })),
      ...rows.map((r) => {
        const info = infoOf(r);
        return { ...info, lastUsedAt: this.latestUse(info.id, info.lastUsedAt) };
      }),
    ];
  }

  /** One key by id, or undefined. */
  async get(id: string): Promise<ApiKeyInfo | undefined> {
    return (await this.list()).find((k) => k.id === id);
  }

  /**
   * Revokes a stored key by id: refused at once here and (with a revocation channel) on every
   * node. Revoking a revoked key changes nothing. NOT_FOUND for an unknown id; INVALID_ARGUMENT
   * for a key of API_KEYS or ADMIN_API_KEYS, which only the configuration can remove.
   */
  async revoke(id: string): Promise<ApiKeyInfo> {
    const env = this.envInfo.find((k) => k.id === id);
    if (env) {
      throw invalidArgument(`key ${id} is set in ${env.source}; remove it from that variable and restart to revoke it`);
    }
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: iso(this.now()) })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    const info = await this.get(id);
    if (!info) throw new AppError('NOT_FOUND', `no API key has id ${id}`);
    await this.revoked_(id);
    return info;
  }

  /** Revokes stored keys by id or by name (the CLI); returns the ids revoked. */
  async revokeByIdOrName(idOrName: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: iso(this.now()) })
      .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    for (const { id } of rows) await this.revoked_(id);
    return rows.map((r) => r.id);
  }

  /**
   * Writes when each key was last used since the last call, in one statement; a time already
   * stored that is later (another node's) is kept. On failure the times are kept for the next call.
   */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = this.lastUsed;
    this.lastUsed = new Map();
    try {
      await this.db
        .insertInto('api_key_last_used')
        .values([...batch].map(([key_id, at]) => ({ key_id, last_used_at: iso(at) })))
        .onConflict((oc) =>
          oc
            .column('key_id')
            .doUpdateSet((eb) => ({ last_used_at: eb.ref('excluded.last_used_at') }))
            .where('api_key_last_used.last_used_at', '<', (eb) => eb.ref('excluded.last_used_at')),
        )
        .execute();
    } catch (error) {
      for (const [id, at] of batch) this.lastUsed.set(id, Math.max(at, this.lastUsed.get(id) ?? 0));
      throw error;
    }
  }

  /** Stops listening for key changes and writes the last uses still in memory. */
  async close(): Promise<void> {
    await this.options.changes?.close();
    await this.flushLastUsed().catch((error: unknown) => this.logger.warn({ err: error }, 'API keys: last uses not written'));
  }

  /** A key made or revoked here or on another node: a new key is read with the next request, a revoked one refused from now on. */
  private changed(change: KeyChange): void {
    if (change.type === 'created') {
      this.loadedAt = 0;
      return;
    }
    this.revoked.add(change.keyId);
    this.known = this.known.filter((e) => e.principal.id !== change.keyId);
  }

  private async revoked_(id: string): Promise<void> {
    this.changed({ type: 'revoked', keyId: id });
    await this.announce({ type: 'revoked', keyId: id });
  }

  private async announce(change: KeyChange): Promise<void> {
    try {
      await this.options.changes?.publish(change);
    } catch (error) {
      // The other nodes read the change from the database within refreshMs.
      this.logger.warn({ err: error, keyId: change.keyId }, `API keys: key ${change.type} but not announced; other nodes see it at their next refresh`);
    }
  }

  private latestUse(id: string, stored: string | null): string | null {
    const pending = this.lastUsed.get(id);
    if (pending === undefined) return stored;
    const at = iso(pending);
    return stored !== null && stored > at ? stored : at;
  }

  private newRow(input: NewApiKey) {
    const name = tidyName(input.name);
    if (name.length === 0) throw invalidArgument('name must not be empty');
    if (name.length > MAX_KEY_NAME_LENGTH) throw invalidArgument(`name must be at most ${MAX_KEY_NAME_LENGTH} characters`);
    if (hasControlCharacters(name)) throw invalidArgument('name must not contain control characters');
    const scope = input.scope ?? 'read';
    if (!(API_KEY_SCOPES as readonly string[]).includes(scope)) throw invalidArgument('scope must be read or admin');
    let expiresAt: string | null = null;
    if (input.expiresAt !== undefined && input.expiresAt !== null) {
      const ms = input.expiresAt instanceof Date ? input.expiresAt.getTime() : expiryOf(input.expiresAt);
      if (Number.isNaN(ms)) throw invalidArgument(EXPIRY_FORMAT);
      if (ms <= this.now()) throw invalidArgument('expiresAt must be in the future');
      expiresAt = iso(ms);
    }
    return {
      id: randomBytes(6).toString('hex'),
      name,
      scope,
      source: input.source ?? 'api',
      created_at: iso(this.now()),
      expires_at: expiresAt,
      revoked_at: null,
    };
  }

  private async reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const rows = await this.db
          .selectFrom('api_keys')
          .select(['id', 'name', 'key_hash', 'scope', 'expires_at'])
          .where('revoked_at', 'is', null)
          .execute();
        this.known = rows
          .filter((r) => !this.revoked.has(r.id))
          .map((r) => ({
            hash: Buffer.from(r.key_hash, 'hex'),
            principal: { id: r.id, name: r.name, scope: scopeOf(r.scope), expiresAt: r.expires_at },
            expiresAtMs: r.expires_at === null ? Infinity : Date.parse(r.expires_at),
          }));
        this.loadedAt = this.now();
      } catch (error) {
        // With the database away, keep accepting the keys known so far and retry soon; with
        // none known yet, the client is told to retry rather than that its key is wrong.
        if (this.loadedAt === 0) {
          throw new AppError('SERVICE_UNAVAILABLE', 'API keys cannot be checked right now; try again shortly', {
            cause: error,
            retryAfterS: 5,
          });
        }
        this.loadedAt = this.now() - this.refreshMs + 2000;
      } finally {
        this.loading = undefined;
      }
    })();
    await this.loading;
  }
}

const EXPIRY_FORMAT = 'expiresAt must be a date (2030-01-01: the start of that day, UTC) or an ISO-8601 date and time with its offset (2030-01-01T12:00:00Z)';

/**
 * An expiry as written by a person or a client: a day (`2030-01-01`, the key stops working at
 * the start of that day, UTC) or a date and time with a zone (`Z` or `+02:00`; without one it
 * would depend on the server's zone). NaN when it is neither.
 */
export function expiryOf(text: string): number {
  const t = text.trim();
  const day = t.slice(0, 10);
  // Date.parse takes 2030-02-30 for 2 March: the day must be one the calendar has.
  const midnight = Date.parse(`${day}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day) return NaN;
  if (t === day) return midnight;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(t)) return NaN;
  return Date.parse(t);
}

/** C0, DEL and C1 characters: no name has them, and logs must not carry them. */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

const scopeOf = (value: string): ApiKeyScope => (value === 'admin' ? 'admin' : 'read');

function infoOf(r: {
  id: string;
  name: string;
  scope: string;
  source: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}): ApiKeyInfo {
  return {
    id: r.id,
    name: r.name,
    scope: scopeOf(r.scope),
    source: (STORED_SOURCES.has(r.source) ? r.source : 'cli') as ApiKeySource,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}
