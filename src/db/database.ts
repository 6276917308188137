import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { ExponentialBackoff, handleWhen, retry } from 'cockatiel';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { lazily } from '../core/lazy';
import { CurrentSchemaPostgresDialect } from './schema.introspector';
import { AppError } from '../core/errors';
import type { DescriptorColumnValues } from './columns';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use (src/core/lazy.ts)
const pg = lazily(() => require('pg') as typeof import('pg'));

/** A stored analysis: the fixed columns and one column per descriptor of the registry (src/db/columns.ts). */
export type AnalysesTable = AnalysesFixedColumns & DescriptorColumnValues;

interface AnalysesFixedColumns {
  track_key: string;
  artist: string;
  track_name: string;
  duration_ms: number;
  tempo: number;
  key: number;
  mode: number;
  time_signature: number;
  loudness: number;
  tempo_confidence: number;
  key_confidence: number;
  mode_confidence: number;
  time_signature_confidence: number;
  /**
   * JSON of the Timeline (beats, bars, sections), the tempo alternatives and the tags; not the
   * segments, which are in analysis_segments (migration 0010).
   */
  timeline: string;
  engine: string;
  source: string;
  analysed_at: string;
  /** foldForSearch(artist) (src/core/fold.ts): what the artist text filter matches. Migration 0003. */
  artist_fold: string;
  /** foldForSearch(track_name): what the title text filter matches. Migration 0003. */
  title_fold: string;
  /** Insertion order, for stable cursors over analyses that keep arriving. */
  seq: Generated<number>;
  /** When the row was last written (migration 0012): what the in-memory browse index reads changes by. */
  revision: Generated<number>;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  /** sha256 hex of the key; the key itself is never stored. */
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
  /** `read` or `admin`. Migration 0005 (keys made before it are `read`). */
  scope: Generated<string>;
  /** ISO-8601 time from which the key is refused; null: it never expires. Migration 0005. */
  expires_at: string | null;
  /** Who made it: `cli`, `api` or `first-run`. Migration 0005 (keys made before it are `cli`). */
  source: Generated<string>;
}

/** When each key (stored or from the environment, by id) was last used, written in batches. Migration 0005. */
export interface ApiKeyLastUsedTable {
  key_id: string;
  last_used_at: string;
}

/** Requests and analyses per key per UTC day (`YYYY-MM-DD`), added to in batches. Migration 0005; uploads 0007. */
export interface ApiKeyUsageTable {
  key_id: string;
  day: string;
  requests: number;
  analyses: number;
  uploads: Generated<number>;
  /** A bigint on Postgres (read as a string there). */
  upload_bytes: Generated<number | string>;
}

/** Batches of usage counts already added from Redis, so that a batch is added once. Migration 0005. */
export interface ApiKeyUsageBatchesTable {
  batch_id: string;
  flushed_at: string;
}

/** A webhook of an API key (migration 0006). */
export interface WebhooksTable {
  id: string;
  /** The id of the API key that owns it (Principal.id). */
  key_id: string;
  url: string;
  /** JSON array of the event types it receives. */
  events: string;
  /** The signing secret, encrypted (src/webhooks/webhook.secrets.ts): it must be read back to sign. */
  secret: string;
  created_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
  /** Failed attempts since the last success. */
  consecutive_failures: number;
}

/** One event to one webhook: its body and where its delivery stands (migration 0006). */
export interface WebhookDeliveriesTable {
  /** The webhook-id header: the same on every attempt. */
  id: string;
  webhook_id: string;
  /** The event it carries; (event_id, webhook_id) is unique, so an event heard twice is delivered once. */
  event_id: string;
  event: string;
  /** The JSON body, exactly as signed and sent. */
  payload: string;
  /** pending (not tried yet), retrying, succeeded, failed. */
  status: string;
  /** Attempts made. */
  attempt: number;
  /** When it is due (ISO), null once it has an outcome; a node sending it pushes it past its own deadline first. */
  next_attempt_at: string | null;
  response_status: number | null;
  duration_ms: number | null;
  /** Why the last attempt failed, for the delivery log. */
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** An API key asked for an analysis that was not stored yet: its webhooks hear how it ends (migration 0006). */
export interface WebhookInterestsTable {
  track_key: string;
  key_id: string;
  created_at: string;
}

/**
 * The tagger's tags of each stored analysis that has them, a row per tag (migration 0008): what
 * browse filters by. Written with the analysis in one transaction; the analysis' own copy (the
 * timeline column) is what reads of it return. Numbers throughout, so that 50 rows an analysis
 * stay small: the analysis by its seq, the tag by its id (src/db/tag-rows.ts).
 */
export interface AnalysisTagsTable {
  /** The analysis' seq. */
  seq: number;
  /** The tag's place among the tagger's outputs (TAGGER_TAG_NAMES). */
  tag: number;
  /** The probability in thousandths (0–1000). */
  milli: number;
  /** 1 for the most probable tag of the analysis, 2 for the next … */
  rank: number;
}

/**
 * The segments of each stored analysis that has them (migration 0010): read only with one
 * analysis (the store's get and getMany), never by a browse page.
 */
export interface AnalysisSegmentsTable {
  /** The analysis' seq. */
  seq: number;
  /** JSON: a row of numbers per segment (src/analysis/store/sql.store.ts, SEGMENT_ROW). */
  segments: string;
}

/**
 * The sound embeddings of each stored analysis that has them (migration 0013), a row per kind:
 * read by the sound index (src/analysis/store/sound.index.ts), never with an analysis.
 */
export interface AnalysisEmbeddingsTable {
  /** The analysis' seq. */
  seq: number;
  /** The embedding's method and version (SoundEmbedding.kind). */
  kind: string;
  /** The vector as little-endian 32-bit floats. */
  vector: Uint8Array;
}

/**
 * A music server's song by its id there (migration 0014): the track key its names give, and what
 * changes when its file does.
 */
export interface SourceTracksTable {
  /** The source's name (`subsonic`). */
  source: string;
  /** The song's id on the server. */
  source_id: string;
  track_key: string;
  /** The song's `created` time and size as the server reported them at the last index; null when not indexed yet (found by a search). */
  version: string | null;
  updated_at: string;
}

export interface DatabaseSchema {
  analyses: AnalysesTable;
  analysis_embeddings: AnalysisEmbeddingsTable;
  analysis_segments: AnalysisSegmentsTable;
  analysis_tags: AnalysisTagsTable;
  api_keys: ApiKeysTable;
  api_key_last_used: ApiKeyLastUsedTable;
  api_key_usage: ApiKeyUsageTable;
  api_key_usage_batches: ApiKeyUsageBatchesTable;
  source_tracks: SourceTracksTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_interests: WebhookInterestsTable;
}

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DatabaseSchema>;
  dialect: Dialect;
  /** Where it lives, with any password masked: safe to log. */
  description: string;
  /** The Postgres schema of DATABASE_SCHEMA, when one was named. */
  schema?: string;
  /** Closes the connections; SQLite first refreshes the planner's statistics if they went stale. */
  close(): Promise<void>;
}

/**
 * How SQLite's statistics are kept (its planner chooses a page's indexes from them; see
 * docs/API.md, "Browse"). `PRAGMA optimize` runs ANALYZE only on tables whose size changed a lot
 * since their statistics were gathered (or that have none), so it is a no-op almost always. Mask
 * 0x10002: check every table (0x10000), analyze where needed (0x02), and without the 0x10 bit, so
 * that ANALYZE runs in full: a limited one (analysis_limit) writes no sqlite_stat4 samples, and
 * without them SQLite guesses every range filter at a quarter of the rows. A full ANALYZE costs
 * about 0.25 s of CPU per 100,000 analyses (BENCHMARKS.md, "Browse").
 */
const SQLITE_OPTIMIZE = 'optimize=0x10002';
/** A long-running process re-checks its statistics this often (SQLite's advice for long-lived connections). */
const SQLITE_OPTIMIZE_EVERY_MS = 60 * 60 * 1000;

/**
 * Opens the database named by DATABASE_URL: `postgres://…` (or `postgresql://…`) for the
 * scale-out store, anything else a SQLite file path (default DATA_DIR/trackgraph.sqlite).
 */
export function openDatabase(databaseUrl: string | undefined, dataDir: string, schema?: string): Database {
  if (databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)) {
    const pool = new (pg().Pool)({
      connectionString: databaseUrl,
      max: 10,
      connectionTimeoutMillis: 3000,
      // DATABASE_SCHEMA: every connection resolves unqualified table names in that schema, so
      // one repository serves any schema (and each test run gets its own).
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle client losing its connection emits 'error' on the pool; without a listener it
    // would crash the process. Queries fail on their own and are mapped to SERVICE_UNAVAILABLE.
    pool.on('error', () => undefined);
    const db = new Kysely<DatabaseSchema>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      // Postgres keeps its statistics by itself: autovacuum ANALYZEs a table once a tenth of it changed.
      close: () => db.destroy(),
      description: databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@') + (schema ? ` (schema ${schema})` : ''),
      ...(schema ? { schema } : {}),
    };
  }
  const file = databaseUrl?.replace(/^sqlite:\/\//, '') ?? path.join(dataDir, 'trackgraph.sqlite');
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(SQLITE_OPTIMIZE);
  const optimizer = setInterval(() => sqlite.pragma(SQLITE_OPTIMIZE), SQLITE_OPTIMIZE_EVERY_MS).unref();
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    description: file,
    async close() {
      clearInterval(optimizer);
      // SQLite's advice: before closing, so the next open plans from statistics of what was written.
      if (sqlite.open) sqlite.pragma(SQLITE_OPTIMIZE);
      await db.destroy();
    },
  };
}

/**
 * Brings the planner's statistics up to date now: after a bulk load, rather than waiting for the
 * next check (SQLite) or for autovacuum (Postgres). On Postgres this is what autovacuum would do
 * after many inserts, VACUUM (ANALYZE): the statistics, and the visibility map, without which an
 * index-only scan still reads the table's rows (a bounded walk's position, similar()'s candidates).
 */
export async function refreshStatistics(database: Pick<Database, 'db' | 'dialect'>): Promise<void> {
  for (const table of ['analyses', 'analysis_tags']) {
    if (database.dialect === 'sqlite') await sql`analyze ${sql.table(table)}`.execute(database.db);
    else await sql`vacuum (analyze) ${sql.table(table)}`.execute(database.db);
  }
}

/**
 * Runs a database call, turning a lost connection (Postgres down, SQLite locked or unreadable)
 * into SERVICE_UNAVAILABLE with a retry hint; other failures pass unchanged. Every reader of
 * the analyses goes through it, so an outage answers 503 wherever it is met.
 */
export async function guardConnection<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isConnectionError(error)) {
      throw new AppError('SERVICE_UNAVAILABLE', 'the analysis store is unreachable; try again shortly', { cause: error, retryAfterS: 5 });
    }
    throw error;
  }
}

/**
 * Runs a database call again while it fails on a lost connection (a database still starting, a
 * pool slow to connect while every process of a deployment starts at once): `attempts` tries in
 * all, waiting from `initialDelayMs` and doubling (4 tries: about 3.5 s); any other failure, and
 * the last, is thrown. For start-up work a running process must not die of (the first key).
 */
export function retryOnConnectionLoss<T>(run: () => Promise<T>, options: { attempts?: number; initialDelayMs?: number } = {}): Promise<T> {
  const policy = retry(handleWhen(isConnectionError), {
    maxAttempts: (options.attempts ?? 4) - 1,
    backoff: new ExponentialBackoff({ initialDelay: options.initialDelayMs ?? 500, maxDelay: 4000 }),
  });
  return policy.execute(run);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03',
  '08000', '08001', '08003', '08004', '08006', 'SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_IOERR',
]);

function isConnectionError(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  if (e?.code && CONNECTION_CODES.has(e.code)) return true;
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(e?.message ?? '');
}
