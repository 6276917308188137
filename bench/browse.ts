import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import SQLite from 'better-sqlite3';
import { Client } from 'pg';
import { BrowseService, type TracksRequest } from '../src/analysis/browse.service';
import { RecommendationsService, type RecommendationsRequest } from '../src/analysis/recommendations.service';
import { SqlAnalysisStore, segmentsRow, toRow } from '../src/analysis/store/sql.store';
import { SqlTracksQuery } from '../src/analysis/store/tracks.query';
import { openDatabase, refreshStatistics, type Database } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrations';
import { tagRows } from '../src/db/tag-rows';
import { realisticAnalysis, syntheticAnalysis, syntheticTags } from './http/seed';
import { percentile } from './lib/stats';

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
 *   npm run bench:browse -- [--rows 100000] [--iterations 200] [--only sqlite|postgres] [--data synthetic|realistic] [--keep]
 *
 * The load (each store's "seeded in"): one transaction, the indexes dropped first and built after
 * it (seedSqlite, seedPostgres). `--keep` leaves the SQLite file and the Postgres schema in place
 * (their names printed) to study plans on afterwards.
 */
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const ROWS = Number(opt('rows') ?? 100_000);
const ITERATIONS = Number(opt('iterations') ?? 200);
const ONLY = opt('only');
const DATA = opt('data') ?? 'synthetic';
const KEEP = args.includes('--keep');
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

/**
 * The index definitions of the analyses' tables, dropped before a bulk load and built again after
 * it: one sort per index instead of 50 million b-tree insertions (SQLite: the CREATE INDEX
 * statements; Postgres: the indexes and the constraints they back, as pg_get_*def gives them).
 */
const LOADED_TABLES = ['analyses', 'analysis_tags', 'analysis_segments'];

/** Analyses per batch of the load; their tag rows go with them. */
const SEED_BATCH = 2000;

/**
 * Rows of analyses, analysis_tags and analysis_segments for analyses [from, to), as the store
 * writes them (toRow, tagRows, segmentsRow), seq = i + 1. syntheticTags(i) depends on i mod 1000
 * only: its tag rows are computed once per residue.
 */
const tagsByResidue = new Map<number, ReturnType<typeof tagRows>>();
function seedRows(from: number, to: number) {
  const analyses: Record<string, unknown>[] = [];
  const tags: number[] = [];
  const segments: { seq: number; segments: string }[] = [];
  for (let i = from; i < to; i++) {
    const seq = i + 1;
    const analysis = analysisAt(i);
    analyses.push({ ...toRow(analysis), seq });
    const segment = segmentsRow(seq, analysis);
    if (segment) segments.push(segment);
    let rows = tagsByResidue.get(i % 1000);
    if (!rows) tagsByResidue.set(i % 1000, (rows = tagRows(0, syntheticTags(i % 1000))));
    for (const t of rows) tags.push(seq, t.tag, t.milli, t.rank);
  }
  return { analyses, tags, segments };
}

/**
 * SQLite: the load on a connection of its own (better-sqlite3, the bench's file, WAL as the
 * service opens it), in one transaction: the indexes dropped, each table filled by prepared
 * multi-row INSERTs reused batch after batch, the indexes built again.
 */
function seedSqlite(file: string): void {
  const raw = new SQLite(file);
  try {
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = OFF');
    raw.pragma('cache_size = -1000000');
    const indexes = raw
      .prepare(`select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${LOADED_TABLES.map(() => '?').join(', ')})`)
      .all(...LOADED_TABLES) as { name: string; sql: string }[];
    const statements = new Map<string, SQLite.Statement>();
    const insert = (table: string, columns: readonly string[], rows: number, values: unknown[]): void => {
      const name = `${table}:${rows}`;
      let statement = statements.get(name);
      if (!statement) {
        const tuple = `(${columns.map(() => '?').join(', ')})`;
        statement = raw.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${new Array<string>(rows).fill(tuple).join(', ')}`);
        statements.set(name, statement);
      }
      statement.run(values);
    };
    /** Rows in statements of at most `per` rows (SQLite takes 32,766 parameters a statement). */
    const insertAll = (table: string, columns: readonly string[], flat: unknown[]): void => {
      const per = Math.floor(32_000 / columns.length);
      for (let k = 0; k < flat.length; k += per * columns.length) {
        const chunk = flat.slice(k, k + per * columns.length);
        insert(table, columns, chunk.length / columns.length, chunk);
      }
    };
    const started = Date.now();
    const phases = (loaded: number): void => void process.stdout.write(`load ${((loaded - started) / 1000).toFixed(0)} s, then indexes ${((Date.now() - loaded) / 1000).toFixed(0)} s\n`);
    raw.transaction(() => {
      for (const { name } of indexes) raw.exec(`drop index "${name}"`);
      let columns: string[] | undefined;
      for (let i = 0; i < ROWS; i += SEED_BATCH) {
        const { analyses, tags, segments } = seedRows(i, Math.min(ROWS, i + SEED_BATCH));
        columns ??= Object.keys(analyses[0]!);
        insertAll('analyses', columns, analyses.flatMap((r) => columns!.map((c) => r[c])));
        insertAll('analysis_tags', ['seq', 'tag', 'milli', 'rank'], tags);
        insertAll('analysis_segments', ['seq', 'segments'], segments.flatMap((s) => [s.seq, s.segments]));
      }
      const loaded = Date.now();
      for (const { sql: create } of indexes) raw.exec(create);
      phases(loaded);
    })();
    raw.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    raw.close();
  }
}

/**
 * Postgres: the load on a connection of its own, in one transaction: the indexes and the
 * constraints they back dropped, each table filled by INSERT … SELECT FROM unnest(arrays) (a few
 * parameters a statement, whatever its rows), then the indexes built again with a larger
 * maintenance_work_mem, and the seq sequence moved past the rows loaded.
 */
async function seedPostgres(url: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const started = Date.now();
    await client.query(`set maintenance_work_mem = '1GB'; set synchronous_commit = off`);
    await client.query('begin');
    const { rows: indexes } = await client.query<{ table: string; name: string; definition: string; constraint: string | null; constraintdef: string | null }>(
      `select t.relname as table, i.relname as name, pg_get_indexdef(x.indexrelid) as definition, c.conname as constraint, pg_get_constraintdef(c.oid) as constraintdef
       from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
       left join pg_constraint c on c.conindid = x.indexrelid and c.conrelid = x.indrelid
       where t.relnamespace = current_schema()::regnamespace and t.relname = any($1)`,
      [LOADED_TABLES],
    );
    for (const ix of indexes) {
      await client.query(ix.constraint ? `alter table "${ix.table}" drop constraint "${ix.constraint}"` : `drop index "${ix.name}"`);
    }
    const { rows: types } = await client.query<{ column: string; type: string }>(
      `select attname as column, format_type(atttypid, atttypmod) as type from pg_attribute
       where attrelid = 'analyses'::regclass and attnum > 0 and not attisdropped`,
    );
    const typeOf = new Map(types.map((t) => [t.column, t.type]));
    let columns: string[] | undefined;
    for (let i = 0; i < ROWS; i += SEED_BATCH) {
      const { analyses, tags, segments } = seedRows(i, Math.min(ROWS, i + SEED_BATCH));
      columns ??= Object.keys(analyses[0]!);
      const list = columns.map((c) => `"${c}"`).join(', ');
      const arrays = columns.map((c, k) => `$${k + 1}::${typeOf.get(c)}[]`).join(', ');
      await client.query(`insert into analyses (${list}) select * from unnest(${arrays})`, columns.map((c) => analyses.map((r) => r[c])));
      const byColumn = [0, 1, 2, 3].map((k) => tags.filter((_, n) => n % 4 === k));
      await client.query('insert into analysis_tags (seq, tag, milli, rank) select * from unnest($1::bigint[], $2::smallint[], $3::smallint[], $4::smallint[])', byColumn);
      if (segments.length > 0) {
        await client.query('insert into analysis_segments (seq, segments) select * from unnest($1::bigint[], $2::text[])', [segments.map((s) => s.seq), segments.map((s) => s.segments)]);
      }
    }
    const loaded = Date.now();
    for (const ix of indexes) {
      await client.query(ix.constraint ? `alter table "${ix.table}" add constraint "${ix.constraint}" ${ix.constraintdef}` : ix.definition);
    }
    process.stdout.write(`load ${((loaded - started) / 1000).toFixed(0)} s, then indexes ${((Date.now() - loaded) / 1000).toFixed(0)} s\n`);
    await client.query(`select setval(pg_get_serial_sequence('analyses', 'seq'), ${Math.max(ROWS, 1)})`);
    await client.query('commit');
  } finally {
    await client.end();
  }
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

async function measure(label: string, database: Database, seconds: number): Promise<void> {
  // What a bulk load is followed by: the planner's statistics, now (SQLite ANALYZE with its
  // sqlite_stat4 samples; Postgres ANALYZE, which autovacuum would run shortly).
  const cpu = process.cpuUsage();
  const analyseStarted = Date.now();
  await refreshStatistics(database);
  const used = process.cpuUsage(cpu);
  const analysed = { wall: (Date.now() - analyseStarted) / 1000, cpu: (used.user + used.system) / 1e6 };
  const browse = new BrowseService(new SqlTracksQuery(database), new SqlAnalysisStore(database));
  process.stdout.write(
    `\n### ${label}: ${ROWS} ${DATA} rows (seeded in ${seconds.toFixed(0)} s; statistics in ${analysed.wall.toFixed(2)} s, ${analysed.cpu.toFixed(2)} s of this process's CPU), ${ITERATIONS} iterations per query\n\n`,
  );
  const tagBytes = await tagTableBytes(database);
  process.stdout.write(`analysis_tags and its indexes: ${Math.round(tagBytes / ROWS)} bytes per analysis (50 tags each)\n\n`);
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
  results.push(await time('similar(first: 10)', (i) => browse.similar(analysisAt((i * 7919) % ROWS).trackKey, 10), `tempo bands × key neighbourhood on ${database.dialect === 'sqlite' ? 'analyses_features (index-only)' : 'analyses_by_key_mode_tempo'}, ranked in JS`, database));
  const recommendations = new RecommendationsService(new SqlTracksQuery(database), new SqlAnalysisStore(database));
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
  if (ONLY !== 'postgres') {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-bench-browse-'));
    const file = path.join(dir, 'browse.sqlite');
    const database = openDatabase(file, dir);
    try {
      const started = Date.now();
      await migrateToLatest(database);
      seedSqlite(file);
      await measure('SQLite (file, WAL)', database, (Date.now() - started) / 1000);
    } finally {
      await database.close();
      if (KEEP) process.stdout.write(`kept ${file}\n`);
      else await rm(dir, { recursive: true, force: true });
    }
  }
  if (ONLY !== 'sqlite') {
    const schema = `tg_bench_browse_${process.pid}`;
    const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}application_name=${APPLICATION}`;
    const database = openDatabase(url, '/nonexistent', schema);
    try {
      const started = Date.now();
      await migrateToLatest(database);
      await seedPostgres(POSTGRES_URL, schema);
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
