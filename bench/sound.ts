import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import path from 'node:path';
import { collector } from './lib/gc';
import { RecommendationsService } from '../src/analysis/recommendations.service';
import { SoundService } from '../src/analysis/sound.service';
import { SoundIndex } from '../src/analysis/store/sound.index';
import { SqlAnalysisStore } from '../src/analysis/store/sql.store';
import { SqlTracksQuery } from '../src/analysis/store/tracks.query';
import { SIGNAL_EMBEDDING } from '../src/core/sound';
import type { StoredAnalysis } from '../src/core/types';
import { openDatabase, refreshStatistics, type Database } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrations';
import { bulkLoadPostgres, bulkLoadSqlite, type BulkSource } from '../measure/store/bulk-load';
import { POSTGRES_URL, dropSchema, uniqueName } from '../measure/store/infra';
import { syntheticAnalysis } from '../measure/store/synthetic-analyses';
import { percentile } from '../measure/stats';

/**
 * Similarity by sound at scale: N stored analyses, each with a synthetic sound embedding (a
 * mixture of clusters, as real embeddings form: N/500 centres, each vector its centre plus noise),
 * bulk-loaded into SQLite (a file, as embedded) and into Postgres (a schema of its own at
 * 127.0.0.1:5432/test, dropped after). Per store: the sound index's load (wall, CPU, memory), its
 * HNSW graph's build, then `similar(by: SOUND)` as the service answers it (the index's search and
 * the store's read of the analyses found: SoundService.similar) and the index's search alone,
 * p50/p99 over random seeds, and recall@10 against the exact nearest (an exact scan of every
 * vector).
 *
 * `--ef 80,160` also measures the search alone and its recall at each of these beams (HNSW's
 * ef) on the same graph. `--keep` leaves the Postgres schema, which `--schema <name>` (with the
 * same --rows and --dims) measures again without seeding, and drops unless `--keep` is given again.
 *
 *   npm run bench:sound -- [--rows 1000000] [--dims 212] [--queries 300] [--recall 50] [--only sqlite|postgres] [--graph-from 20000] [--ef 80,160] [--keep] [--schema <name>]
 */
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const ROWS = Number(opt('rows') ?? 1_000_000);
const DIMS = Number(opt('dims') ?? 212); // the signal path's embedding (signal/4); musicnn/2 has 360
const QUERIES = Number(opt('queries') ?? 300);
const RECALL_QUERIES = Number(opt('recall') ?? 50);
const ONLY = opt('only');
const GRAPH_FROM = opt('graph-from') === undefined ? undefined : Number(opt('graph-from'));
const KEEP = args.includes('--keep');
const SCHEMA = opt('schema');
if (SCHEMA !== undefined && !/^[a-z_][a-z0-9_]*$/.test(SCHEMA)) throw new Error('--schema takes a schema name a bench kept (letters, digits, _)');
const BEAMS = (opt('ef') ?? '').split(',').filter((x) => x !== '').map(Number);
if (BEAMS.some((ef) => !Number.isInteger(ef) || ef < 10)) throw new Error('--ef takes whole numbers of at least 10, comma-separated');
for (const [name, v] of [['rows', ROWS], ['dims', DIMS], ['queries', QUERIES], ['recall', RECALL_QUERIES]] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a whole number of at least 1`);
}
if (ONLY !== undefined && ONLY !== 'sqlite' && ONLY !== 'postgres') throw new Error('--only must be sqlite or postgres');

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CENTRES = Math.max(1, Math.round(ROWS / 500));
const centres: Float32Array[] = (() => {
  const r = rng(7);
  return Array.from({ length: CENTRES }, () => Float32Array.from({ length: DIMS }, () => r() * 2 - 1));
})();

/** Analysis i's vector: its centre plus noise a third of the centres' spread. */
function vectorAt(i: number): number[] {
  const r = rng(1_000_003 + i);
  const centre = centres[Math.floor(r() * CENTRES)]!;
  return Array.from(centre, (c) => c + (r() * 2 - 1) * 0.35);
}

function analysisAt(i: number): StoredAnalysis {
  const a = syntheticAnalysis(i);
  return { ...a, features: { ...a.features, embeddings: [{ kind: SIGNAL_EMBEDDING, vector: vectorAt(i) }] } };
}

const source: BulkSource = { count: ROWS, analysisAt, tagRowsAt: () => [] };

/** The garbage collector's pauses from now until stop(): how many, their total, the longest, how many were full (mark-compact) collections. */
function gcPauses(): { stop: () => { count: number; total: number; longest: number; major: number } } {
  const entries: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      entries.push(...observer.takeRecords());
      observer.disconnect();
      const durations = entries.map((e) => e.duration);
      const major = entries.filter((e) => (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR).length;
      return { count: entries.length, total: durations.reduce((a, b) => a + b, 0), longest: Math.max(0, ...durations), major };
    },
  };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const cpuSeconds = (u: NodeJS.CpuUsage): string => `${((u.user + u.system) / 1e6).toFixed(1)} s of CPU`;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function measure(label: string, database: Database): Promise<void> {
  // What a bulk load is followed by: the planner's statistics (autovacuum would gather them shortly).
  await refreshStatistics(database);
  const gc = collector();
  gc();
  const before = process.memoryUsage();
  let cpu = process.cpuUsage();
  let started = Date.now();
  const index = new SoundIndex(database, SIGNAL_EMBEDDING, (e) => console.error(e), { ...(GRAPH_FROM !== undefined ? { graphFrom: GRAPH_FROM } : {}) });
  await index.load();
  const loadMs = Date.now() - started;
  const loadCpu = process.cpuUsage(cpu);
  gc();
  const loaded = process.memoryUsage();
  cpu = process.cpuUsage();
  started = Date.now();
  await index.built();
  const buildMs = Date.now() - started;
  const buildCpu = process.cpuUsage(cpu);
  gc();
  const after = process.memoryUsage();
  const vectorsHeld = loaded.arrayBuffers + loaded.heapUsed - before.arrayBuffers - before.heapUsed;
  console.log(`${label}: ${index.size} embeddings of ${DIMS} numbers`);
  console.log(`  load: ${seconds(loadMs)} (${cpuSeconds(loadCpu)}), holding ${mib(vectorsHeld)} (vectors, keys, seqs)`);
  console.log(`  HNSW graph (M 16, ef 200 building, ${index.efSearch} searching): built in ${seconds(buildMs)} (${cpuSeconds(buildCpu)})${index.graphReady ? '' : ' — not built: fewer than its threshold'}, resident memory +${mib(after.rss - loaded.rss)}`);

  const store = new SqlAnalysisStore(database);
  const service = new SoundService(() => index, store, 'signal');
  const r = rng(99);
  const seeds = Array.from({ length: QUERIES }, () => syntheticAnalysis(Math.floor(r() * ROWS)).trackKey);
  for (const key of seeds.slice(0, 20)) await service.similar(key, 10);
  const service_ms: number[] = [];
  const index_ms: number[] = [];
  const sync_ms: number[] = [];
  const read_ms: number[] = [];
  const pauses = gcPauses();
  for (const key of seeds) {
    let t = process.hrtime.bigint();
    await service.similar(key, 10);
    service_ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    // The parts of the same answer, each again on its own: the index's catching up with the store, the search, the read of the ten found.
    t = process.hrtime.bigint();
    await index.fresh();
    sync_ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    const vector = index.vectorOf(key)!;
    t = process.hrtime.bigint();
    const found = index.nearest(vector, 10, new Set([key]));
    index_ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await store.getMany(found.map((f) => f.trackKey), { segments: false });
    read_ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const collected = pauses.stop();
  const p = (xs: number[], q: number) => percentile(xs, q).toFixed(2);
  console.log(`  similar(by: SOUND), first 10, ${QUERIES} seeds: p50 ${p(service_ms, 50)} ms, p99 ${p(service_ms, 99)} ms (the index's search alone: p50 ${p(index_ms, 50)}, p99 ${p(index_ms, 99)} ms)`);
  console.log(`    its parts, each again alone: catching up with the store p50 ${p(sync_ms, 50)}, p99 ${p(sync_ms, 99)} ms; reading the ten found p50 ${p(read_ms, 50)}, p99 ${p(read_ms, 99)} ms`);
  console.log(`    garbage collection meanwhile: ${collected.count} pauses, ${collected.total.toFixed(0)} ms in all, the longest ${collected.longest.toFixed(1)} ms (${collected.major} major)`);

  // Spotify's /v1/recommendations seeded by a track, as the service answers it when embeddings exist: by sound.
  const recommendations = new RecommendationsService(new SqlTracksQuery(database), store, service);
  const recommend_ms: number[] = [];
  for (const key of seeds) {
    const t = process.hrtime.bigint();
    const answer = await recommendations.recommend({ seedTracks: [key], limit: 20 });
    recommend_ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (answer.tracks.length !== 20) throw new Error(`recommendations seeded by ${key} gave ${answer.tracks.length} tracks, not 20`);
  }
  console.log(`  recommendations(seed, limit 20) by sound, ${QUERIES} seeds: p50 ${p(recommend_ms, 50)} ms, p99 ${p(recommend_ms, 99)} ms`);

  const exact = seeds.slice(0, RECALL_QUERIES).map((key) => {
    const vector = index.vectorOf(key)!;
    const t = process.hrtime.bigint();
    const nearest = index.nearestExact(vector, 10, new Set([key]));
    return { key, vector, ms: Number(process.hrtime.bigint() - t) / 1e6, keys: nearest.map((e) => e.trackKey) };
  });
  const recall = (): number => {
    let hits = 0;
    for (const e of exact) {
      const found = new Set(index.nearest(e.vector, 10, new Set([e.key])).map((f) => f.trackKey));
      hits += e.keys.filter((k) => found.has(k)).length;
    }
    return hits / (exact.length * 10);
  };
  console.log(`  recall@10 against the exact nearest (${RECALL_QUERIES} seeds): ${recall().toFixed(3)} (an exact scan: p50 ${p(exact.map((e) => e.ms), 50)} ms)`);
  const shipped = index.efSearch;
  for (const ef of BEAMS) {
    index.efSearch = ef;
    const ms = seeds.map((key) => {
      const vector = index.vectorOf(key)!;
      const t = process.hrtime.bigint();
      index.nearest(vector, 10, new Set([key]));
      return Number(process.hrtime.bigint() - t) / 1e6;
    });
    console.log(`  ef ${ef}: the search alone p50 ${p(ms, 50)} ms, p99 ${p(ms, 99)} ms; recall@10 ${recall().toFixed(3)}`);
  }
  index.efSearch = shipped;
  console.log('');
}

async function main(): Promise<void> {
  console.log(`bench:sound: ${ROWS} analyses, embeddings of ${DIMS} numbers around ${CENTRES} centres\n`);
  if (ONLY !== 'postgres') {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-bench-sound-'));
    try {
      const file = path.join(dir, 'sound.sqlite');
      const migrating = openDatabase(file, dir);
      await migrateToLatest(migrating);
      await migrating.close();
      const started = Date.now();
      bulkLoadSqlite(file, source);
      console.log(`SQLite seeded in ${seconds(Date.now() - started)}`);
      const database = openDatabase(file, dir);
      try {
        await measure('SQLite', database);
      } finally {
        await database.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (ONLY !== 'sqlite') {
    if (!POSTGRES_URL) {
      console.log('Postgres: left out (no server at 127.0.0.1:5432, database test)');
      return;
    }
    const schema = SCHEMA ?? uniqueName('bench_sound');
    const database = openDatabase(POSTGRES_URL, '/nonexistent', schema);
    try {
      if (SCHEMA === undefined) {
        await migrateToLatest(database);
        const started = Date.now();
        await bulkLoadPostgres(POSTGRES_URL, schema, source);
        console.log(`Postgres seeded in ${seconds(Date.now() - started)}`);
      }
      await measure('Postgres', database);
    } finally {
      await database.close();
      if (KEEP) console.log(`Postgres: kept as the schema ${schema} (--schema ${schema} measures it again)`);
      else await dropSchema(schema);
    }
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
