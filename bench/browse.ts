import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { collector } from './lib/gc';
import { sql } from 'kysely';
import { Client } from 'pg';
import { BrowseService, type TracksRequest } from '../src/analysis/browse.service';
import { RecommendationsService, type RecommendationsRequest } from '../src/analysis/recommendations.service';
import { BrowseIndex } from '../src/analysis/store/browse.index';
import { SqlAnalysisStore } from '../src/analysis/store/sql.store';
import { SqlTracksQuery } from '../src/analysis/store/tracks.query';
import { openDatabase, refreshStatistics, type Database } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrations';
import { tagRows } from '../src/db/tag-rows';
import { bulkLoadPostgres, bulkLoadSqlite, type BulkLoadTimes, type BulkSource } from '../measure/store/bulk-load';
import { realisticAnalysis, syntheticAnalysis, syntheticTags } from '../measure/store/synthetic-analyses';
import { percentile } from '../measure/stats';

/**
 * Latency of tracks(filter…), similar() and recommendations over N synthetic stored analyses, on SQLite (a file,
 * as embedded) and on Postgres (a schema of its own at 127.0.0.1:5432/test, dropped after),
 * measured through BrowseService (the GraphQL resolver's one call; GraphQL execution not
 * included). Prints each query's plan beside its percentiles.
 *
 * `--data synthetic` (the default) stores syntheticAnalysis(i): every descriptor an exact function
 * of i mod 1000, so filters are perfectly correlated (the worst case for a planner assuming
 * independence: "energetic and danceable" matches no row at all). `--data realistic` stores
 * realisticAnalysis(i): seeded random values with a catalogue's correlations. Either way every
 * analysis carries the tagger's 50 tags (syntheticTags(i): as an analysis made with the models
 * does), written to analysis_tags.
 *
 *   npm run bench:browse -- [--rows 100000] [--iterations 200] [--only sqlite|postgres] [--data synthetic|realistic] [--keep] [--seed-only] [--no-index]
 *     [--sqlite <file>] [--schema <name>]
 *
 * The queries run as the service runs them: through the in-memory browse index (browse.index.ts,
 * BROWSE_INDEX, on by default), whose load is timed and weighed first; `--no-index` measures the
 * database's statements alone (BROWSE_INDEX=false, and what answers while the index loads).
 *
 * The load (each store's "seeded in"): one transaction, the indexes dropped first and built after
 * it (measure/store/bulk-load.ts: SQLite without a journal, Postgres by COPY). `--keep` leaves the SQLite file and the Postgres schema in place
 * (their names printed) to study plans on afterwards; `--seed-only` stops after the load and the statistics;
 * `--sqlite <file>` and `--schema <name>` measure what an earlier `--keep` left, without seeding again (and keep it).
 */
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
/** Rows seeded; measuring a kept database (`--sqlite`, `--schema`), the rows it holds. */
let ROWS = Number(opt('rows') ?? 100_000);
const ITERATIONS = Number(opt('iterations') ?? 200);
const ONLY = opt('only');
const DATA = opt('data') ?? 'synthetic';
const KEEP = args.includes('--keep');
const SEED_ONLY = args.includes('--seed-only');
const NO_INDEX = args.includes('--no-index');
const REUSE_SQLITE = opt('sqlite');
const REUSE_SCHEMA = opt('schema');
if (DATA !== 'synthetic' && DATA !== 'realistic') throw new Error('--data must be synthetic or realistic');
const analysisAt = DATA === 'realistic' ? realisticAnalysis : syntheticAnalysis;
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? `postgres://${os.userInfo().username}@127.0.0.1:5432/test`;

/** Each case varies with the iteration, so a run is not one cached query repeated. */
const CASES: ReadonlyArray<readonly [string, (i: number) => TracksRequest]> = [
  ['newest first (no filter)', () => ({ first: 20 })],
  ['happiest (order by mood.happy desc)', () => ({ orderBy: { field: 'MOOD_HAPPY', direction: 'DESC' }, first: 20 })],
  [
    'calm minor around a tempo (tempo ±5, mode 0, relaxed ≥ 0.5; by relaxed desc)',
    (i) => ({
      filter: { tempo: { min: 80 + (i % 60) - 5, max: 80 + (i % 60) + 5 }, mode: 0, mood: { relaxed: { min: 0.5 } } },
      orderBy: { field: 'MOOD_RELAXED', direction: 'DESC' },
      first: 20,
    }),
  ],
  [
    'energetic and danceable (energy ≥ 0.7, danceability ≥ 0.6; by tempo asc; no synthetic row has both: an empty answer)',
    () => ({ filter: { energy: { min: 0.7 }, danceability: { min: 0.6 } }, orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 20 }),
  ],
  [
    'narrow tempo + key (tempo ±0.5, key in [k]; by danceability desc)',
    (i) => ({
      filter: { tempo: { min: 100 + (i % 50) - 0.5, max: 100 + (i % 50) + 0.5 }, key: [i % 12] },
      orderBy: { field: 'DANCEABILITY', direction: 'DESC' },
      first: 20,
    }),
  ],
  [
    'keys and meter (key in [0,7], 3/4; by valence desc)',
    () => ({ filter: { key: [0, 7], timeSignature: [3] }, orderBy: { field: 'VALENCE', direction: 'DESC' }, first: 20 }),
  ],
  ['a tag among the top 3 (punk; newest first)', () => ({ filter: { tags: [{ name: 'punk', top: 3 }] }, first: 20 })],
  [
    'a tag’s probability (rock ≥ 0.2–0.5; by energy desc)',
    (i) => ({ filter: { tags: [{ name: 'rock', min: 0.2 + (i % 4) / 10 }] }, orderBy: { field: 'ENERGY', direction: 'DESC' }, first: 20 }),
  ],
  [
    'two tags never together (rock ≥ 0.35, jazz ≥ 0.35; by tempo asc: an empty answer)',
    () => ({ filter: { tags: [{ name: 'rock', min: 0.35 }, { name: 'jazz', min: 0.35 }] }, orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 20 }),
  ],
  ['the most rock- or jazz-like (order by the tag desc)', (i) => ({ orderBy: { field: 'TAG', tag: i % 2 ? 'jazz' : 'rock', direction: 'DESC' }, first: 20 })],
  [
    'a tag’s order, filtered (by jazz desc; tempo ±5, mode 0)',
    (i) => ({ filter: { tempo: { min: 80 + (i % 60) - 5, max: 80 + (i % 60) + 5 }, mode: 0 }, orderBy: { field: 'TAG', tag: 'jazz', direction: 'DESC' }, first: 20 }),
  ],
  [
    'a tag’s order, filters never true together (by rock desc; energy ≥ 0.7, danceability ≥ 0.6: an empty answer)',
    () => ({ filter: { energy: { min: 0.7 }, danceability: { min: 0.6 } }, orderBy: { field: 'TAG', tag: 'rock', direction: 'DESC' }, first: 20 }),
  ],
  [
    'artist text (contains "artist 4N"; by energy desc)',
    (i) => ({ filter: { artist: `artist 4${i % 10}` }, orderBy: { field: 'ENERGY', direction: 'DESC' }, first: 20 }),
  ],
];

interface Result {
  name: string;
  p50: number;
  p99: number;
  max: number;
  /** CPU time of this process per call (all of SQLite's work; only the client's for Postgres). */
  cpu: number;
  /** CPU time of the Postgres server processes per call (10 ms clock ticks over all iterations). */
  serverCpu: number | undefined;
  plan: string;
}

/** This run's Postgres connections carry this application_name, to find their server processes. */
const APPLICATION = `tg_bench_browse_${process.pid}`;

/**
 * CPU seconds (user + system) used so far by this run's Postgres server processes, read from
 * /proc (Postgres on this machine); undefined where that cannot be read.
 */
async function serverCpu(database: Database): Promise<number | undefined> {
  if (database.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${APPLICATION}`.execute(database.db);
  let ticks = 0;
  try {
    for (const { pid } of rows) {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
  } catch {
    return undefined;
  }
  return ticks / 100;
}

async function time(name: string, run: (i: number) => Promise<unknown>, plan: string, database: Database): Promise<Result> {
  for (let i = 0; i < 20; i++) await run(i);
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  const server = await serverCpu(database);
  for (let i = 0; i < ITERATIONS; i++) {
    const start = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const used = process.cpuUsage(cpu);
  const serverAfter = await serverCpu(database);
  const serverMs = server !== undefined && serverAfter !== undefined ? ((serverAfter - server) * 1000) / ITERATIONS : undefined;
  return { name, p50: percentile(samples, 50), p99: percentile(samples, 99), max: percentile(samples, 100), cpu: (used.user + used.system) / 1000 / ITERATIONS, serverCpu: serverMs, plan };
}

/** The tagger's 50 tags of analysis i as rows: syntheticTags(i) depends on i mod 1000 only, so they are built once per residue. */
const tagsByResidue = new Map<number, ReturnType<typeof tagRows>>();
const source: BulkSource = {
  count: ROWS,
  analysisAt,
  tagRowsAt(i) {
    let rows = tagsByResidue.get(i % 1000);
    if (!rows) tagsByResidue.set(i % 1000, (rows = tagRows(0, syntheticTags(i % 1000))));
    return rows;
  },
};

/** Where a load's time went (bulkLoadSqlite, bulkLoadPostgres), one line. */
function printLoad(times: BulkLoadTimes): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  const indexes = times.indexes.reduce((sum, ix) => sum + ix.ms, 0);
  const each = times.indexes.filter((ix) => ix.ms >= 1000).map((ix) => `${ix.name} ${s(ix.ms)}`);
  process.stdout.write(`load ${s(times.load)} (rows built in JS ${s(times.build)}), then indexes ${s(indexes)}${each.length ? ` (${each.join(', ')})` : ''}\n`);
}

/** Bytes the tags' table and its indexes take (SQLite: its pages, dbstat; Postgres: pg_total_relation_size). */
async function tagTableBytes(database: Database): Promise<number> {
  const { rows } =
    database.dialect === 'sqlite'
      ? await sql<{ bytes: number }>`select sum(pgsize) as bytes from dbstat where name like 'analysis_tags%'`.execute(database.db)
      : await sql<{ bytes: string }>`select pg_total_relation_size('analysis_tags') as bytes`.execute(database.db);
  return Number(rows[0]?.bytes ?? 0);
}

/** The tuning of the recommendations with ranges: a target and a range. */
const RANGES = { target: { energy: 0.8 }, min: { danceability: 0.3 }, max: { danceability: 0.9 } };

/** The plans of the statements a recommendation reads its pool with, as the tracks() cases' plans are printed. */
async function recommendationsPlan(service: RecommendationsService, request: RecommendationsRequest): Promise<string> {
  return `pool of ≤ 1,500 ranked in JS: ${(await service.explain(request)).map((l) => l.trim()).filter((l) => !/^(Planning|JIT)/.test(l)).join('; ')}`;
}

/** The browse index loaded, with the load's wall time, CPU (this process's) and the memory it holds, printed. */
async function loadIndex(database: Database): Promise<BrowseIndex> {
  const gc = collector();
  gc();
  const before = process.memoryUsage();
  const cpu = process.cpuUsage();
  const started = Date.now();
  const index = new BrowseIndex(database, undefined, { wait: true });
  await index.load();
  const used = process.cpuUsage(cpu);
  gc();
  const after = process.memoryUsage();
  const held = after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed;
  process.stdout.write(
    `browse index: ${index.size} analyses loaded in ${((Date.now() - started) / 1000).toFixed(1)} s (${((used.user + used.system) / 1e6).toFixed(1)} s of this process's CPU), holding ${(held / 2 ** 20).toFixed(0)} MiB (${Math.round(held / index.size)} bytes an analysis)\n\n`,
  );
  // A tag is read at its first use: the first page naming one waits for this (or, in the
  // service, is answered by the database while it loads).
  const tagCpu = process.cpuUsage();
  const tagStarted = Date.now();
  await index.fresh(['rock']);
  const tagUsed = process.cpuUsage(tagCpu);
  process.stdout.write(`a tag's first use ("rock"): read in ${((Date.now() - tagStarted) / 1000).toFixed(2)} s (${((tagUsed.user + tagUsed.system) / 1e6).toFixed(2)} s of this process's CPU), 3 bytes an analysis\n\n`);
  return index;
}

async function measure(label: string, database: Database, seconds: number): Promise<void> {
  if (REUSE_SQLITE || REUSE_SCHEMA) ROWS = Number((await sql<{ n: string | number }>`select count(*) as n from analyses`.execute(database.db)).rows[0]?.n ?? 0);
  // What a bulk load is followed by: the planner's statistics, now (SQLite ANALYZE with its
  // sqlite_stat4 samples; Postgres ANALYZE, which autovacuum would run shortly).
  const cpu = process.cpuUsage();
  const analyseStarted = Date.now();
  await refreshStatistics(database);
  const used = process.cpuUsage(cpu);
  const analysed = { wall: (Date.now() - analyseStarted) / 1000, cpu: (used.user + used.system) / 1e6 };
  const index = NO_INDEX || SEED_ONLY ? undefined : await loadIndex(database);
  const browse = new BrowseService(new SqlTracksQuery(database, index), new SqlAnalysisStore(database));
  process.stdout.write(
    `\n### ${label}: ${ROWS} ${DATA} rows (seeded in ${seconds.toFixed(0)} s; statistics in ${analysed.wall.toFixed(2)} s, ${analysed.cpu.toFixed(2)} s of this process's CPU), ${ITERATIONS} iterations per query\n\n`,
  );
  const tagBytes = await tagTableBytes(database);
  process.stdout.write(`analysis_tags and its indexes: ${Math.round(tagBytes / ROWS)} bytes per analysis (50 tags each)\n\n`);
  if (SEED_ONLY) return;
  const results: Result[] = [];
  for (const [name, request] of CASES) {
    const plan = (await browse.explain(request(0))).map((l) => l.trim()).filter((l) => !/^(Planning|JIT)/.test(l)).join('; ');
    results.push(await time(name, (i) => browse.tracks(request(i)), plan, database));
  }
  // A page deep into an ordering: the cursor of page 50 (1,000 rows in).
  let after: string | null = null;
  for (let p = 0; p < 50; p++) after = (await browse.tracks({ orderBy: { field: 'MOOD_HAPPY', direction: 'DESC' }, first: 20, after })).pageInfo.endCursor;
  const deep = { orderBy: { field: 'MOOD_HAPPY', direction: 'DESC' }, first: 20, after } as const;
  results.push(await time('page 51 of the happiest (cursor)', () => browse.tracks(deep), (await browse.explain(deep)).join('; '), database));
  const similarPlan = index ? 'tempo bands × key neighbourhood from the browse index' : `tempo bands × key neighbourhood on ${database.dialect === 'sqlite' ? 'analyses_features (index-only)' : 'analyses_by_key_mode_tempo'}`;
  results.push(await time('similar(first: 10)', (i) => browse.similar(analysisAt((i * 7919) % ROWS).trackKey, 10), `${similarPlan}, ranked in JS`, database));
  const recommendations = new RecommendationsService(new SqlTracksQuery(database, index), new SqlAnalysisStore(database));
  results.push(
    await time(
      'recommendations(seed, limit 20)',
      (i) => recommendations.recommend({ seedTracks: [analysisAt((i * 7919) % ROWS).trackKey], limit: 20 }),
      await recommendationsPlan(recommendations, { seedTracks: [analysisAt(0).trackKey], limit: 20 }),
      database,
    ),
  );
  results.push(
    await time(
      'recommendations(seed, target_energy, min/max danceability, limit 20)',
      (i) => recommendations.recommend({ seedTracks: [analysisAt((i * 7919) % ROWS).trackKey], limit: 20, tuning: RANGES }),
      await recommendationsPlan(recommendations, { seedTracks: [analysisAt(0).trackKey], limit: 20, tuning: RANGES }),
      database,
    ),
  );
  const pg = database.dialect === 'postgres';
  process.stdout.write(`| query | p50 ms | p99 ms | max ms | CPU ms/call${pg ? ' (client + server)' : ''} | plan |\n|---|---:|---:|---:|---:|---|\n`);
  for (const r of results) {
    const cpu = pg ? `${r.cpu.toFixed(2)} + ${r.serverCpu?.toFixed(2) ?? 'n/a'}` : r.cpu.toFixed(2);
    process.stdout.write(`| ${r.name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.max.toFixed(1)} | ${cpu} | ${r.plan.replace(/\|/g, '\\|')} |\n`);
  }
  const all = results.slice(0, CASES.length + 1);
  process.stdout.write(`\nworst tracks() p99: ${Math.max(...all.map((r) => r.p99)).toFixed(2)} ms; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
}

async function main(): Promise<void> {
  process.stdout.write(`Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  if (ONLY !== 'postgres' && REUSE_SQLITE) {
    const database = openDatabase(REUSE_SQLITE, path.dirname(REUSE_SQLITE));
    try {
      await measure('SQLite (file, WAL)', database, 0);
    } finally {
      await database.close();
    }
  } else if (ONLY !== 'postgres') {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-bench-browse-'));
    const file = path.join(dir, 'browse.sqlite');
    const started = Date.now();
    let database: Database | undefined;
    try {
      // The schema made, then the load on its own connection (its journal off needs the file to
      // itself), then the file opened as the service opens it.
      const migrating = openDatabase(file, dir);
      try {
        await migrateToLatest(migrating);
      } finally {
        await migrating.close();
      }
      printLoad(bulkLoadSqlite(file, source));
      database = openDatabase(file, dir);
      await measure('SQLite (file, WAL)', database, (Date.now() - started) / 1000);
    } finally {
      await database?.close();
      if (KEEP) process.stdout.write(`kept ${file}\n`);
      else await rm(dir, { recursive: true, force: true });
    }
  }
  if (ONLY !== 'sqlite' && REUSE_SCHEMA) {
    const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}application_name=${APPLICATION}`;
    const database = openDatabase(url, '/nonexistent', REUSE_SCHEMA);
    try {
      await measure(`Postgres (${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')})`, database, 0);
    } finally {
      await database.close();
    }
  } else if (ONLY !== 'sqlite') {
    const schema = `tg_bench_browse_${process.pid}`;
    const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}application_name=${APPLICATION}`;
    const database = openDatabase(url, '/nonexistent', schema);
    try {
      const started = Date.now();
      await migrateToLatest(database);
      printLoad(await bulkLoadPostgres(POSTGRES_URL, schema, source));
      await measure(`Postgres (${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')})`, database, (Date.now() - started) / 1000);
    } finally {
      await database.close();
      if (KEEP) process.stdout.write(`kept schema ${schema}\n`);
      else {
        const client = new Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      }
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exitCode = 1;
});
