import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MIN_KEY_CONFIDENCE, KEY_NOTATIONS, type KeyNotation } from './core/music';
import { parseTempoRange } from './core/tempo-range';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));
/** A BPM range, "70-140" (core/tempo-range.ts). */
const tempoRange = z.string().transform((v, ctx) => {
  try {
    return parseTempoRange(v);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
const httpUrl = z.url({ protocol: /^https?$/ }).transform((v) => v.replace(/\/+$/, ''));
const list = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter((s) => s.length > 0));
/**
 * A browser origin, or `*`. Written as the Origin header spells it (scheme://host[:port]); a
 * trailing slash is forgiven, a path or query is refused (an origin has none), and the host is
 * lowercased and a default port dropped, as browsers send it.
 */
const origin = z.string().transform((v, ctx) => {
  if (v === '*') return v;
  const url = URL.parse(v);
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !/[?#@]/.test(v)) {
    return url.origin;
  }
  ctx.addIssue({ code: 'custom', message: `"${v}" is not an origin (scheme://host[:port], nothing after it) or *` });
  return z.NEVER;
});

/**
 * A Subsonic server's base URL: http(s), no credentials in it (they would end up in logs), a
 * trailing `/rest` (the API's own path) forgiven. The value is never echoed: it may hold a password.
 */
const subsonicUrl = z.string().transform((v, ctx) => {
  const url = URL.parse(v.trim());
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL, the server\'s address (e.g. http://navidrome:4533)' });
    return z.NEVER;
  }
  if (url.username !== '' || url.password !== '') {
    ctx.addIssue({ code: 'custom', message: 'must not carry credentials: set SUBSONIC_USER and SUBSONIC_PASSWORD' });
    return z.NEVER;
  }
  if (url.search !== '' || url.hash !== '') {
    ctx.addIssue({ code: 'custom', message: 'must not carry a query or a fragment: the server\'s address only' });
    return z.NEVER;
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/rest$/, '');
});

export const SOURCE_NAMES = ['library', 'deezer', 'musicbrainz', 'upstream', 'subsonic'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/**
 * Every environment variable the service reads, with its default and a one-line meaning.
 * docs/CONFIGURATION.md's table mirrors this schema; the names are part of the interface.
 */
const schema = z.object({
  /** TCP port of the HTTP server. */
  PORT: int(0, 65535).default(4000),
  /** Interface the HTTP server binds to. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Base URL clients reach this server at; used in thumbnailUrl links. Default http://HOST:PORT. */
  PUBLIC_URL: httpUrl.optional(),
  /** SQLite files and other local state. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** Local music folder indexed by the library source. */
  LIBRARY_DIR: z.string().min(1).default('./library'),
  /** Key that signs artwork URLs; share it between API nodes. Default: random, kept in DATA_DIR. */
  ARTWORK_SECRET: z.string().min(16).optional(),
  /**
   * Where music players see LIBRARY_DIR, for the paths of M3U8 playlists the API answers
   * (`?format=m3u`): e.g. `/music` for a Navidrome container mounting the folder there. Absent:
   * paths relative to LIBRARY_DIR. Playlists saved into the folder always use relative paths.
   */
  PLAYLIST_PATH_PREFIX: z.string().min(1).max(1024).optional(),
  /** Watch LIBRARY_DIR for added, changed and removed files. */
  LIBRARY_WATCH: bool.default(true),
  /**
   * The server writes each library file's analysis into the file's tags as it gets it (BPM,
   * initial key, moods: docs/TAGS.md, "Written by the server"), and analyses the files the library
   * indexes that have none: a file dropped into LIBRARY_DIR comes out tagged.
   */
  LIBRARY_WRITE_TAGS: bool.default(false),
  /** With LIBRARY_WRITE_TAGS: the key confidence under which the key is not written (`npm run index -- --min-key-confidence`). */
  LIBRARY_TAGS_MIN_KEY_CONFIDENCE: z.coerce.number().min(0).max(1).default(DEFAULT_MIN_KEY_CONFIDENCE),
  /** With LIBRARY_WRITE_TAGS: the BPM written is the tempo counted within this range, as 70-140 (`--bpm-range`). */
  LIBRARY_TAGS_BPM_RANGE: tempoRange.optional(),
  /** With LIBRARY_WRITE_TAGS: the initial key's notation, standard, open-key or camelot (`--key-notation`). */
  LIBRARY_TAGS_KEY_NOTATION: z.enum(Object.keys(KEY_NOTATIONS) as [KeyNotation, ...KeyNotation[]]).default('standard'),
  /** Comma-separated API keys accepted as Bearer tokens (read scope), besides stored keys. */
  API_KEYS: list.default([]),
  /** Comma-separated admin API keys (the API, and managing keys, webhooks and every key's usage). */
  ADMIN_API_KEYS: list.default([]),
  /** How often each API node writes usage counts and keys' last uses (kept in memory meanwhile), ms. */
  USAGE_FLUSH_MS: int(100, 3_600_000).default(30_000),
  /**
   * Ordered, comma-separated list of enabled sources. Default: the music folder, then Deezer's
   * public catalogue (no key; 30 s previews), so that a fresh start finds and analyses something.
   */
  SOURCES: list
    .pipe(z.array(z.enum(SOURCE_NAMES)).min(1, 'at least one source'))
    .default(['library', 'deezer']),
  /** Keyv store URI: sqlite://path, redis://host:port, memory://. Default: SQLite under DATA_DIR. */
  CACHE_URL: z.string().optional(),
  /** Analysis store: a SQLite file path or postgres://… Default: SQLite under DATA_DIR. */
  DATABASE_URL: z.string().optional(),
  /** redis://… puts analysis jobs on BullMQ; unset runs them in-process. */
  QUEUE_URL: z.string().optional(),
  /** Postgres schema holding the tables (created if absent). Default: the connection's search_path (public). */
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lowercase SQL identifier').optional(),
  /** Prefix of every Redis key this deployment writes (BullMQ queue, rate limits, cache); one per deployment. */
  REDIS_PREFIX: z.string().regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . -').default('trackgraph'),
  /** Analyses one `npm run worker` process runs at once. Default: ANALYSIS_WORKERS. */
  WORKER_CONCURRENCY: int(1, 64).optional(),
  /** How long a worker's lock on a job lasts without renewal; a killed worker's job is retried after it, ms. */
  WORKER_LOCK_MS: int(1000, 600_000).default(30_000),
  /** Bearer token /metrics requires; unset serves /metrics without authentication (bind it privately). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Port of the worker's /healthz, /readyz and /metrics; unset: the worker serves no HTTP. */
  WORKER_PORT: int(0, 65535).optional(),
  /** Longest a client may take to send a request's headers (a connection that sends nothing is closed after it), ms. */
  HTTP_HEADERS_TIMEOUT_MS: int(100, 600_000).default(10_000),
  /** Longest a client may take to send a whole request, body included (a trickling upload is answered 408), ms. */
  HTTP_REQUEST_TIMEOUT_MS: int(100, 600_000).default(30_000),
  /** How long a kept-alive connection may wait for its next request, ms. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(100, 600_000).default(5_000),
  /** A connection with no traffic either way for this long is closed, ms. Default: 30 s, or ANALYSIS_WAIT_MS + 10 s when longer. */
  HTTP_IDLE_TIMEOUT_MS: int(100, 3_600_000).optional(),
  /** How long shutdown waits for in-flight requests and jobs before exiting anyway, ms. */
  SHUTDOWN_TIMEOUT_MS: int(1000, 600_000).default(30_000),
  /** Lifetime of cached search metadata, seconds. */
  SEARCH_CACHE_TTL_S: int(1, 365 * 86400).default(86400),
  /**
   * Keep an in-memory index of the numbers browse filters and orders by (browse.index.ts): about
   * 170 bytes an analysis and 3 for each tag browsed by, loaded in the background at the first browse.
   */
  BROWSE_INDEX: bool.default(true),
  /** Analysis worker threads in this process. Default: number of cores. */
  ANALYSIS_WORKERS: int(1, 64).default(Math.max(1, os.availableParallelism())),
  /** Longest one analysis may run before its worker is killed and replaced, ms. */
  ANALYSIS_TIMEOUT_MS: int(1000, 3_600_000).default(120_000),
  /** Length of the analysed window of files longer than 45 s, seconds. */
  ANALYSIS_WINDOW_S: int(5, 600).default(30),
  /**
   * Folder of Essentia's MusiCNN models (TensorFlow.js; see README): moods, danceability and
   * instrumentalness then come from them. Unset: from the signal formulas.
   */
  MODELS_DIR: z.string().min(1).optional(),
  /** With MODELS_DIR, a model file missing or wrong stops the start; false: warn once and serve the signal descriptors. */
  MODELS_REQUIRED: bool.default(true),
  /** 3 s patches of each analysed window the models run on (docs/FEATURES.md). Default 0: every patch. */
  MODELS_PATCHES: int(0, 1000).optional(),
  /**
   * Rank of the models' factorised convolutions (docs/FEATURES.md). Default 40; 0: the
   * convolutions as trained (every value as the models give it, ~3.8x the CPU).
   */
  MODELS_RANK: int(0, 1000).optional(),
  /** Stored analyses kept in each process's memory in front of the store. */
  ANALYSIS_CACHE_ENTRIES: int(1, 10_000_000).default(50_000),
  /** The largest audio file an upload may send, bytes (413 past it). Default 100 MiB. */
  UPLOAD_MAX_BYTES: int(1, 64 * 1024 ** 3).default(100 * 1024 ** 2),
  /** Longest the fetch of an audio URL (POST /api/audio/analyses with {"url"}) may take, headers and body, ms (422 URL_UNREACHABLE past it). */
  UPLOAD_FETCH_TIMEOUT_MS: int(100, 3_600_000).default(60_000),
  /**
   * Where uploads wait while they are analysed. Default DATA_DIR/uploads. With QUEUE_URL the
   * workers read them there: a folder every API node and worker mounts at this path.
   */
  UPLOAD_DIR: z.string().min(1).optional(),
  /** Keep analysed uploads in LIBRARY_DIR as `Artist - Track.ext` (the library indexes them); false: removed once analysed. */
  UPLOAD_KEEP: bool.default(false),
  /** Uploads per API key per UTC day (429 UPLOAD_QUOTA_EXCEEDED past it); 0: no limit. */
  UPLOAD_QUOTA_FILES_PER_DAY: int(0, 1_000_000_000).default(1000),
  /** Bytes of uploads per API key per UTC day, counted as received; 0: no limit. Default 10 GiB. */
  UPLOAD_QUOTA_BYTES_PER_DAY: int(0, 2 ** 50).default(10 * 1024 ** 3),
  /** How long a request waits for an analysis before answering 202, ms. */
  ANALYSIS_WAIT_MS: int(0, 600_000).default(20_000),
  /** Requests per minute per API key. */
  RATE_LIMIT: int(1, 1_000_000_000).default(600),
  /** GraphQL document cost that counts as one request against RATE_LIMIT (one track's full analysis costs 31). */
  RATE_LIMIT_GRAPHQL_COST: int(1, 1_000_000).default(32),
  /** Comma-separated browser origins allowed to call the API (CORS), or `*` for any; unset: none. */
  CORS_ORIGINS: list.pipe(z.array(origin)).default([]),
  /** Serve Apollo Sandbox at /graphql?sandbox and link it from the /graphql page (GraphiQL at /graphiql is always served). */
  GRAPHQL_SANDBOX: bool.default(true),
  /** Deepest GraphQL document accepted. */
  GRAPHQL_MAX_DEPTH: int(1, 100).default(12),
  /** Highest GraphQL document cost accepted. */
  GRAPHQL_MAX_COST: int(1, 1_000_000).default(5000),
  /** Most tokens the GraphQL parser reads in one document before refusing it. */
  GRAPHQL_MAX_TOKENS: int(100, 1_000_000).default(3000),
  /** Most fields, fragment spreads and inline fragments in one GraphQL document, its fragments expanded. */
  GRAPHQL_MAX_SELECTIONS: int(1, 1_000_000).default(1000),
  /** Most aliases in one GraphQL document, its fragments expanded. */
  GRAPHQL_MAX_ALIASES: int(0, 100_000).default(100),
  /** Most directives in one GraphQL document, its fragments expanded. */
  GRAPHQL_MAX_DIRECTIVES: int(0, 100_000).default(50),
  /** Most operations in one batched GraphQL HTTP request (a JSON array, as Apollo's BatchHttpLink sends); each is held to every limit. */
  GRAPHQL_MAX_BATCH: int(1, 100).default(10),
  /** Most GraphQL subscriptions one WebSocket connection may hold at once. */
  GRAPHQL_MAX_SUBSCRIPTIONS: int(1, 1000).default(10),
  /** Key that seals webhook signing secrets in the store; the same on every API node. Default: random, kept in DATA_DIR. */
  WEBHOOK_SECRET_KEY: z.string().min(32, 'at least 32 characters').optional(),
  /** Longest one webhook attempt may take (connection, answer), ms. */
  WEBHOOK_TIMEOUT_MS: int(1000, 60_000).default(10_000),
  /** Failed attempts in a row after which a webhook is disabled. */
  WEBHOOK_MAX_FAILURES: int(1, 100_000).default(20),
  /** Timeout of one call to an external source, ms. */
  SOURCE_TIMEOUT_MS: int(100, 120_000).default(8000),
  /** Largest audio download accepted, bytes. */
  AUDIO_MAX_BYTES: int(1024, 1024 * 1024 * 1024).default(20 * 1024 * 1024),
  /** Largest JSON answer accepted from a source, bytes; a larger one is refused (502 UPSTREAM_INVALID). */
  SOURCE_MAX_JSON_BYTES: int(1024, 256 * 1024 * 1024).default(2 * 1024 * 1024),
  /** Let URLs that come from data (previews, redirects) and webhook targets reach loopback and private addresses: closed networks and tests only. */
  OUTBOUND_ALLOW_PRIVATE: bool.default(false),
  DEEZER_BASE_URL: httpUrl.default('https://api.deezer.com'),
  MUSICBRAINZ_BASE_URL: httpUrl.default('https://musicbrainz.org/ws/2'),
  COVERART_BASE_URL: httpUrl.default('https://coverartarchive.org'),
  /** Contact (URL or e-mail) sent in the User-Agent to MusicBrainz, as its rules ask. */
  MUSICBRAINZ_CONTACT: z.string().default('https://github.com/trackgraph/trackgraph'),
  /** {base_url} of another server of this contract, ending with /api. */
  UPSTREAM_URL: httpUrl.optional(),
  /** Bearer key for UPSTREAM_URL. */
  UPSTREAM_API_KEY: z.string().optional(),
  /**
   * A music server of the Subsonic API (Navidrome, Airsonic, gonic, Supysonic): its base URL, the
   * one its apps are given (the API is under {SUBSONIC_URL}/rest). Credentials go in
   * SUBSONIC_USER and SUBSONIC_PASSWORD, never in the URL.
   */
  SUBSONIC_URL: subsonicUrl.optional(),
  /** The account trackgraph reads the server's songs with and saves playlists as. */
  SUBSONIC_USER: z.string().min(1).max(256).optional(),
  /** That account's password; never logged, never in an error or an answer. */
  SUBSONIC_PASSWORD: z.string().min(1, 'must not be empty').max(1024, 'at most 1024 characters').optional(),
  /** pino level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Log lines as JSON (`json`), readable (`pretty`), or readable when stdout is a terminal (`auto`). */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
});

export type Config = Omit<z.infer<typeof schema>, 'HTTP_IDLE_TIMEOUT_MS'> & {
  /** Resolved: the given value, or its default derived from ANALYSIS_WAIT_MS. */
  HTTP_IDLE_TIMEOUT_MS: number;
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** Absolute LIBRARY_DIR. */
  libraryDir: string;
  /** Absolute UPLOAD_DIR (default DATA_DIR/uploads). */
  uploadDir: string;
  publicUrl: string;
};

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses and validates the environment once. A bad value throws a ConfigError naming the
 * variable, so the process stops at start with a message instead of failing later.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const c = parsed.data;
  const problems = crossChecks(c);
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  const displayHost = c.HOST === '0.0.0.0' || c.HOST === '::' ? 'localhost' : c.HOST;
  return {
    ...c,
    HTTP_IDLE_TIMEOUT_MS: idleTimeoutOf(c),
    dataDir: path.resolve(c.DATA_DIR),
    libraryDir: path.resolve(c.LIBRARY_DIR),
    uploadDir: path.resolve(c.UPLOAD_DIR ?? path.join(c.DATA_DIR, 'uploads')),
    publicUrl: c.PUBLIC_URL ?? `http://${displayHost}:${c.PORT}`,
  };
}

/** A request waits up to ANALYSIS_WAIT_MS in silence for its answer: the idle timeout leaves it that long and more. */
const IDLE_BEYOND_ANALYSIS_WAIT_MS = 10_000;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

function idleTimeoutOf(c: z.infer<typeof schema>): number {
  return c.HTTP_IDLE_TIMEOUT_MS ?? Math.max(DEFAULT_IDLE_TIMEOUT_MS, c.ANALYSIS_WAIT_MS + IDLE_BEYOND_ANALYSIS_WAIT_MS);
}

/** Rules between variables, each as the line naming the variable to change. */
function crossChecks(c: z.infer<typeof schema>): string[] {
  const problems: string[] = [];
  if (c.SOURCES.includes('upstream') && !c.UPSTREAM_URL) problems.push('UPSTREAM_URL: required when SOURCES includes upstream');
  if (c.LIBRARY_WRITE_TAGS && !c.SOURCES.includes('library')) problems.push('LIBRARY_WRITE_TAGS: needs the library among SOURCES (it tags the files of LIBRARY_DIR)');
  if (c.SOURCES.includes('subsonic')) {
    for (const name of ['SUBSONIC_URL', 'SUBSONIC_USER', 'SUBSONIC_PASSWORD'] as const) {
      if (c[name] === undefined) problems.push(`${name}: required when SOURCES includes subsonic`);
    }
  }
  // Node refuses a headers timeout longer than the request's, which includes the headers.
  if (c.HTTP_HEADERS_TIMEOUT_MS > c.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push(`HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (${c.HTTP_REQUEST_TIMEOUT_MS})`);
  }
  const admin = new Set(c.ADMIN_API_KEYS);
  // Which key is meant is not printed: the message would put it in a log.
  if (c.API_KEYS.some((k) => admin.has(k))) problems.push('ADMIN_API_KEYS: a key is in both API_KEYS and ADMIN_API_KEYS; list each key once');
  const idle = idleTimeoutOf(c);
  const silence = Math.max(c.ANALYSIS_WAIT_MS, c.SOURCE_TIMEOUT_MS);
  if (idle <= silence) {
    problems.push(`HTTP_IDLE_TIMEOUT_MS: must exceed ANALYSIS_WAIT_MS and SOURCE_TIMEOUT_MS (${silence}), or answers still being prepared are cut`);
  }
  return problems;
}

/**
 * A process entry point's configuration: a bad value stops it with exit status 2 and one line
 * naming the variable (prefixed with the process's name), before anything starts.
 */
export function loadConfigOrExit(processName: string): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${processName}: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}
