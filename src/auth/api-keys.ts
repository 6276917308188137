import { hash as digest, randomBytes } from 'node:crypto';
import { AppError, invalidArgument } from '../core/errors';
import type { Logger } from '../core/logger';
import { silentLogger } from '../core/logger';
import { tidyName } from '../core/name';
import type { ApiRequestListener } from '../core/observers';
import type { ApiKeyStore, ListedApiKey, StoredApiKey } from './api-key.store';
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
  principal: Principal;
  /** principal.expiresAt as epoch ms; Infinity: never. */
  expiresAtMs: number;
}

// One-shot digest: about half the cost of createHash().update().digest() for a short key. Hex,
// as the store keeps it.
const hash = (key: string): string => digest('sha256', key, 'hex');

const iso = (ms: number): string => new Date(ms).toISOString();

/** A known, unrevoked key that a presented one matched, and whether it has expired. */
type KeyMatch = { principal: Principal; expired: boolean };

/**
 * API keys: those of API_KEYS and ADMIN_API_KEYS and those stored (made with the CLI, through the
 * API, or on a first start; api-key.store.ts). Only SHA-256 hashes are kept (in memory and in the
 * store); a presented key is hashed and its hash looked up. The lookup's timing can only tell of
 * hashes, which a client cannot choose (it would need a key with a given SHA-256), so one
 * lookup in a map serves however many keys there are, where comparing with each took time in
 * proportion to their number on every request.
 *
 * `authenticate` checks a presented key synchronously against the keys as last loaded; they are
 * read again after `refreshMs` (`stale`, `ensureFresh`). A key made or revoked through this
 * service is accepted or refused at once by this process, and by every other process told
 * through the key-change channel; one made or revoked elsewhere without the channel (the CLI
 * without Redis) within `refreshMs`. When each key was last used is remembered in memory and
 * written in batches (flushLastUsed), not once per request.
 */
export class ApiKeyService {
  /** The stored keys as last loaded, by hash. */
  private known = new Map<string, Entry>();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;
  /** API_KEYS and ADMIN_API_KEYS, by hash (a key in both: admin). */
  private readonly envKeys = new Map<string, Entry>();
  private readonly envInfo: ApiKeyInfo[];
  /** Ids revoked while this process runs: refused even if a reload that began before brings them back. */
  private readonly revoked = new Set<string>();
  /** Last use per key id (epoch ms) not written yet. */
  private lastUsed = new Map<string, number>();
  private readonly refreshMs: number;
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly listeners: ApiRequestListener[];

  constructor(
    private readonly store: ApiKeyStore,
    private readonly options: ApiKeyServiceOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? silentLogger;
    this.listeners = [...(options.requestListeners ?? [])];
    const startedAt = iso(this.now());
    const env = (keys: readonly string[] | undefined, scope: ApiKeyScope, source: 'API_KEYS' | 'ADMIN_API_KEYS', prefix: string) =>
      (keys ?? []).map((k, i) => ({
        hash: hash(k),
        entry: { principal: { id: `${prefix}:${i + 1}`, name: `${source} #${i + 1}`, scope, expiresAt: null }, expiresAtMs: Infinity },
        info: { id: `${prefix}:${i + 1}`, name: `${source} #${i + 1}`, scope, source, createdAt: startedAt, expiresAt: null, lastUsedAt: null, revokedAt: null },
      }));
    const all = [...env(options.envKeys?.admin, 'admin', 'ADMIN_API_KEYS', 'env-admin'), ...env(options.envKeys?.read, 'read', 'API_KEYS', 'env')];
    for (const e of all) if (!this.envKeys.has(e.hash)) this.envKeys.set(e.hash, e.entry);
    this.envInfo = all.map((e) => e.info);
  }

  /** Listens for keys made or revoked on other nodes (when a channel was given). */
  async start(): Promise<void> {
    await this.options.changes?.subscribe((change) => this.changed(change));
  }

  /** Tells `listener` of every request authenticated from now on (usage counting, made after the keys it lists). */
  observeRequests(listener: ApiRequestListener): void {
    this.listeners.push(listener);
  }

  /** True when the stored keys must be read again (ensureFresh) before `authenticate` or `recheck`. */
  stale(): boolean {
    return this.now() - this.loadedAt > this.refreshMs;
  }

  /** Reads the stored keys again if they are stale. */
  async ensureFresh(): Promise<void> {
    if (this.stale()) await this.reload();
  }

  /**
   * The principal of a presented key, against the keys as last loaded (callers check `stale()`
   * first), counted as a use of the key; UNAUTHENTICATED for an unknown, revoked or expired key.
   * Synchronous and without I/O: it runs on every request.
   */
  authenticate(presented: string): Principal {
    const now = this.now();
    const found = this.lookup(presented, now);
    if (!found) throw new AppError('UNAUTHENTICATED', 'unknown or revoked API key');
    const { principal } = found;
    if (found.expired) throw new AppError('UNAUTHENTICATED', `this API key expired at ${principal.expiresAt}; ask an admin for a new one`);
    this.lastUsed.set(principal.id, now);
    for (const listener of this.listeners) listener.apiRequest(principal.id);
    return principal;
  }

  /**
   * Checks again a key accepted before (a subscription's connection, as it starts another
   * subscription): its principal while it is known, not revoked and not expired, against the keys
   * as last loaded (callers check `stale()` first); undefined otherwise. Not counted as a use.
   */
  recheck(presented: string): Principal | undefined {
    const found = this.lookup(presented, this.now());
    return found && !found.expired ? found.principal : undefined;
  }

  /** Creates a key; the key itself is returned once and never stored. */
  async create(input: NewApiKey): Promise<{ key: string; info: ApiKeyInfo }> {
    const key = `tg_${randomBytes(32).toString('base64url')}`;
    const stored = this.newKey(input, key);
    await this.store.insert(stored);
    this.loadedAt = 0;
    await this.announce({ type: 'created', keyId: stored.id });
    return { key, info: infoOf({ ...stored, lastUsedAt: null }) };
  }

  /**
   * The first key of a server that has none: an admin key, made only when no key is configured
   * or stored (revoked ones included), so that it is made once, even by nodes starting together.
   * Undefined when keys exist.
   */
  async createFirstKey(): Promise<{ key: string; info: ApiKeyInfo } | undefined> {
    if (this.envKeys.size > 0) return undefined;
    const key = `tg_${randomBytes(32).toString('base64url')}`;
    const stored = this.newKey({ name: 'first admin key', scope: 'admin', source: 'first-run' }, key);
    if (!(await this.store.insertIfNone(stored))) return undefined;
    this.loadedAt = 0;
    return { key, info: infoOf({ ...stored, lastUsedAt: null }) };
  }

  /** Every key, those of the environment first, then the stored ones by creation; with when each was last used. */
  async list(): Promise<ApiKeyInfo[]> {
    const stored = await this.store.list();
    const envUsed = await this.store.lastUses(this.envInfo.map((k) => k.id));
    return [
      ...this.envInfo.map((k) => ({ ...k, lastUsedAt: this.latestUse(k.id, envUsed.get(k.id) ?? null) })),
      ...stored.map((k) => {
        const info = infoOf(k);
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
    await this.store.revoke(id, iso(this.now()));
    const info = await this.get(id);
    if (!info) throw new AppError('NOT_FOUND', `no API key has id ${id}`);
    await this.tellRevoked(id);
    return info;
  }

  /** Revokes stored keys by id or by name (the CLI); returns the ids revoked. */
  async revokeByIdOrName(idOrName: string): Promise<string[]> {
    const ids = await this.store.revokeByIdOrName(idOrName, iso(this.now()));
    for (const id of ids) await this.tellRevoked(id);
    return ids;
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
      await this.store.recordLastUses(new Map([...batch].map(([id, at]) => [id, iso(at)])));
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
    for (const [h, e] of this.known) if (e.principal.id === change.keyId) this.known.delete(h);
  }

  /** A key revoked here: refused from now on by this process, and announced to the others. */
  private async tellRevoked(id: string): Promise<void> {
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

  /** The key's principal when it is known and not revoked (expired or not), against the keys as last loaded. */
  private lookup(presented: string, now: number): KeyMatch | undefined {
    const candidate = hash(presented);
    const match = this.envKeys.get(candidate) ?? this.known.get(candidate);
    if (!match || this.revoked.has(match.principal.id)) return undefined;
    return { principal: match.principal, expired: match.expiresAtMs <= now };
  }

  private latestUse(id: string, stored: string | null): string | null {
    const pending = this.lastUsed.get(id);
    if (pending === undefined) return stored;
    const at = iso(pending);
    return stored !== null && stored > at ? stored : at;
  }

  /** A new key as it is stored, its input checked: INVALID_ARGUMENT for a name, scope or expiry refused. */
  private newKey(input: NewApiKey, key: string): StoredApiKey {
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
      keyHash: hash(key),
      scope,
      source: input.source ?? 'api',
      createdAt: iso(this.now()),
      expiresAt,
      revokedAt: null,
    };
  }

  private async reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const active = await this.store.active();
        const known = new Map<string, Entry>();
        for (const k of active) {
          if (this.revoked.has(k.id)) continue;
          known.set(k.keyHash.toLowerCase(), {
            principal: { id: k.id, name: k.name, scope: scopeOf(k.scope), expiresAt: k.expiresAt },
            expiresAtMs: k.expiresAt === null ? Infinity : Date.parse(k.expiresAt),
          });
        }
        this.known = known;
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

function infoOf(k: ListedApiKey): ApiKeyInfo {
  return {
    id: k.id,
    name: k.name,
    scope: scopeOf(k.scope),
    source: (STORED_SOURCES.has(k.source) ? k.source : 'cli') as ApiKeySource,
    createdAt: k.createdAt,
    expiresAt: k.expiresAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
  };
}
