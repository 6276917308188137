import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Pool } from 'pg';
import { BrowseService, type TracksRequest } from '../../../src/analysis/browse.service';
import { RecommendationsService } from '../../../src/analysis/recommendations.service';
import { SqlAnalysisStore, toRow } from '../../../src/analysis/store/sql.store';
import { unreadSegments } from '../../../src/analysis/store/store';
import { SqlTracksQuery } from '../../../src/analysis/store/tracks.query';
import type { Segment, StoredAnalysis } from '../../../src/core/types';
import type { Database, DatabaseSchema } from '../../../src/db/database';
import { CurrentSchemaPostgresDialect } from '../../../src/db/schema.introspector';
import { migrateTo, migrateToLatest } from '../../../src/db/migrations';
import { POSTGRES_URL, dropSchema, uniqueName } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';
import { DESCRIPTORS } from '../../../src/core/descriptors';
import { analysisOf, rowBeforeAddedDescriptors, tagsOf } from './browse.suite';

/*
 * Migration 0010: the segments of an analysis live in analysis_segments, read with one analysis
 * (the store's get and getMany) and never by the statements of a browse page, a similar() or a
 * recommendations answer, whose analyses read theirs only when asked (unreadSegments).
 */

/** n segments, each its own numbers. */
function segmentsOf(seed: number, n = 3): Segment[] {
  return Array.from({ length: n }, (_, i) => ({
    start: i * 0.25,
    duration: 0.25,
    confidence: (seed % 10) / 10,
    loudnessStart: -30 + i,
    loudnessMax: -12.5 - (seed % 7),
    loudnessMaxTime: 0.05,
    loudnessEnd: -31,
    pitches: Array.from({ length: 12 }, (_, k) => ((seed + i + k) % 10) / 10),
    timbre: Array.from({ length: 12 }, (_, k) => seed - k * 1.5),
  }));
}

/** An analysis as read back from a row stored before its newer descriptors had columns (rowBeforeAddedDescriptors): without them. */
function beforeAddedDescriptors(a: StoredAnalysis): StoredAnalysis {
  const features = { ...a.features } as Record<string, unknown>;
  for (const d of DESCRIPTORS) if ((d as { since?: number }).since !== undefined && d.group !== 'mood') delete features[d.name];
  return { ...a, features: features as unknown as StoredAnalysis['features'] };
}

function withSegments(a: StoredAnalysis, seed: number): StoredAnalysis {
  return { ...a, features: { ...a.features, timeline: { ...a.features.timeline, segments: segmentsOf(seed) } } };
}

/** A database of its own whose every statement is recorded (Kysely's log), and how to remove it. */
interface Recorded {
  database: Database;
  statements: string[];
  close(): Promise<void>;
}

async function recordedSqlite(): Promise<Recorded> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-segments-'));
  const file = path.join(dir, 'segments.sqlite');
  const statements: string[] = [];
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: raw }), log: (event) => void statements.push(event.query.sql) });
  return {
    database: { db, dialect: 'sqlite', description: file, close: () => db.destroy() },
    statements,
    async close() {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function recordedPostgres(): Promise<Recorded> {
  const schema = uniqueName('segments');
  const statements: string[] = [];
  const pool = new Pool({ connectionString: POSTGRES_URL, max: 4, options: `-c search_path=${schema}` });
  const db = new Kysely<DatabaseSchema>({ dialect: new CurrentSchemaPostgresDialect({ pool }), log: (event) => void statements.push(event.query.sql) });
  return {
    database: { db, dialect: 'postgres', description: schema, schema, close: () => db.destroy() },
    statements,
    async close() {
      await db.destroy();
      await dropSchema(schema);
    },
  };
}

function describeSegments(name: string, open: () => Promise<Recorded>): void {
  describe(`segments in a table of their own on ${name}`, () => {
    let under: Recorded;
    afterEach(() => under.close());

    it('a browse page, similar() and recommendations read no segments; their analyses read them when asked, a store read has them', async () => {
      under = await open();
      const { database, statements } = under;
      await migrateToLatest(database);
      const store = new SqlAnalysisStore(database);
      const saved: StoredAnalysis[] = [];
      for (let i = 0; i < 60; i++) {
        const a = analysisOf('Segmented', `Song ${i}`, { tempo: 100 + (i % 20), tags: tagsOf(i) }, i + 1);
        // Every fourth analysis has no segments (made before engine 11, or by another server).
        saved.push(i % 4 === 3 ? a : withSegments(a, i));
        await store.save(saved[i]!);
      }
      const byKey = new Map(saved.map((a) => [a.trackKey, a]));
      const browse = new BrowseService(new SqlTracksQuery(database), store);
      const recommendations = new RecommendationsService(new SqlTracksQuery(database), store);
      const requests: TracksRequest[] = [
        { first: 10 },
        { orderBy: { field: 'ENERGY', direction: 'DESC' }, first: 10 },
        { filter: { tempo: { min: 100, max: 110 }, energy: { min: 0.2 } }, orderBy: { field: 'VALENCE', direction: 'ASC' }, first: 10 },
        { filter: { key: [0, 1, 2, 3, 4, 5], mode: 1 }, orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 10 },
        { filter: { tags: [{ name: 'rock', min: 0.01 }] }, orderBy: { field: 'DANCEABILITY', direction: 'DESC' }, first: 10 },
        { filter: { energy: { min: 0.3 } }, orderBy: { field: 'TAG', tag: 'rock', direction: 'DESC' }, first: 10 },
      ];
      statements.length = 0;
      const read: StoredAnalysis[] = [];
      for (const request of requests) read.push(...(await browse.tracks(request)).edges.map((e) => e.node));
      read.push(...(await browse.similar(saved[0]!.trackKey, 10)).map((s) => s.analysis));
      read.push(...(await recommendations.recommend({ seedTracks: [saved[1]!.trackKey], limit: 10 })).tracks);
      read.push(
        ...(await recommendations.recommend({ seedTracks: [saved[2]!.trackKey], limit: 10, tuning: { target: { energy: 0.8 }, min: { danceability: 0.1 }, max: { danceability: 0.9 } } })).tracks,
      );
      expect(read.length).toBeGreaterThan(40);
      // Not one of their statements names the segments' table (the seeds are read without them too).
      expect(statements.length).toBeGreaterThan(requests.length + 3);
      expect(statements.filter((s) => /analysis_segments/.test(s))).toEqual([]);

      // Each analysis so read has no segments until asked; asked, a page's are read in one statement.
      for (const a of read) expect(a.features.timeline).not.toHaveProperty('segments');
      statements.length = 0;
      const page = read.slice(0, 10);
      const loaded = await Promise.all(page.map((a) => unreadSegments(a)!()));
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/from "analysis_segments"/);
      page.forEach((a, i) => expect(loaded[i]).toEqual(byKey.get(a.trackKey)!.features.timeline.segments));

      // A read of one analysis, or of several, has them.
      for (const a of saved.slice(0, 8)) expect(await store.get(a.trackKey)).toEqual(a);
      const many = await store.getMany(saved.slice(0, 8).map((a) => a.trackKey));
      for (const a of saved.slice(0, 8)) {
        expect(many.get(a.trackKey)).toEqual(a);
        expect(unreadSegments(many.get(a.trackKey)!)).toBeUndefined();
      }

      // Replace swaps them; a replacement without segments leaves none.
      const fresh = withSegments({ ...saved[0]!, analysedAt: '2030-01-01T00:00:00.000Z' }, 77);
      expect(await store.replace(fresh)).toBe(true);
      expect(await store.get(fresh.trackKey)).toEqual(fresh);
      const bare = { ...saved[1]!, features: { ...saved[1]!.features, timeline: { beats: [], bars: [], sections: [] } } };
      expect(await store.replace(bare)).toBe(true);
      expect(await store.get(bare.trackKey)).toEqual(bare);
      const left = await database.db.selectFrom('analysis_segments').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst();
      expect(Number(left?.n)).toBe(saved.filter((a) => a.features.timeline.segments).length - 1);
    });

    it('migration 0010 moves the segments of analyses stored before it out of their timeline, in batches; each still reads whole, and down moves them back', async () => {
      under = await open();
      const { database } = under;
      const { db, dialect } = database;
      await migrateTo(database, '0009_tag_order');
      const before: StoredAnalysis[] = [];
      const rows = [];
      for (let i = 0; i < 450; i++) {
        const a = analysisOf('Before', `Segmented ${i}`, i % 5 === 0 ? {} : { tags: tagsOf(i), tempoAlternatives: [{ tempo: 61 + i, confidence: 0.2 }] }, 500 + i);
        // Every third made before engine 11: no segments; one with an empty list.
        const analysis = i % 3 === 0 ? a : i === 4 ? { ...a, features: { ...a.features, timeline: { ...a.features.timeline, segments: [] } } } : withSegments(a, i);
        before.push(beforeAddedDescriptors(analysis));
        // The row as the store wrote it before 0010: the segments in the timeline column, as rows of numbers.
        const row = rowBeforeAddedDescriptors(toRow(analysis));
        const segments = analysis.features.timeline.segments;
        if (segments) {
          const segmentRows = segments.map((s) => [s.start, s.duration, s.confidence, s.loudnessStart, s.loudnessMax, s.loudnessMaxTime, s.loudnessEnd, ...s.pitches, ...s.timbre]);
          const { beats, bars, sections, ...rest } = JSON.parse(row.timeline) as Record<string, unknown>;
          row.timeline = JSON.stringify({ beats, bars, sections, segmentRows, ...rest });
        }
        rows.push(dialect === 'sqlite' ? { ...row, seq: i + 1 } : row);
      }
      for (let i = 0; i < rows.length; i += 150) await db.insertInto('analyses').values(rows.slice(i, i + 150)).execute();
      await migrateToLatest(database);

      const store = new SqlAnalysisStore(database);
      const moved = await db.selectFrom('analysis_segments').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst();
      expect(Number(moved?.n)).toBe(before.filter((a) => a.features.timeline.segments).length);
      const stillInline = await db.selectFrom('analyses').select('track_key').where('timeline', 'like', '%segmentRows%').execute();
      expect(stillInline).toEqual([]);
      for (const a of before.filter((_, i) => i % 7 === 0 || i === 4)) expect(await store.get(a.trackKey)).toEqual(a);
      const many = await store.getMany(before.slice(0, 30).map((a) => a.trackKey));
      for (const a of before.slice(0, 30)) expect(many.get(a.trackKey)).toEqual(a);
      // A page reads them only when asked.
      const page = await new BrowseService(new SqlTracksQuery(database), store).tracks({ filter: { trackName: 'segmented 1' }, first: 20 });
      expect(page.edges.length).toBeGreaterThan(5);
      for (const { node } of page.edges) {
        expect(node.features.timeline).not.toHaveProperty('segments');
        expect(await unreadSegments(node)!()).toEqual(before.find((a) => a.trackKey === node.trackKey)!.features.timeline.segments);
      }

      // Down: the segments back in the timeline column, read as before.
      await migrateTo(database, '0009_tag_order');
      const back = await db.selectFrom('analyses').select(['track_key', 'timeline']).execute();
      const timelines = new Map(back.map((r) => [r.track_key, JSON.parse(r.timeline) as { segmentRows?: number[][] }]));
      for (const a of before) expect(timelines.get(a.trackKey)!.segmentRows?.length).toBe(a.features.timeline.segments?.length);
      await migrateToLatest(database);
      for (const a of before.filter((_, i) => i % 11 === 0)) expect(await store.get(a.trackKey)).toEqual(a);
    });

    it('an analysis written by a node older than 0010 (its segments in the timeline column) still reads whole', async () => {
      under = await open();
      const { database } = under;
      await migrateToLatest(database);
      const a = withSegments(analysisOf('Old', 'Node', {}, 3), 3);
      const row = toRow(a);
      const segmentRows = a.features.timeline.segments!.map((s) => [s.start, s.duration, s.confidence, s.loudnessStart, s.loudnessMax, s.loudnessMaxTime, s.loudnessEnd, ...s.pitches, ...s.timbre]);
      row.timeline = JSON.stringify({ ...(JSON.parse(row.timeline) as object), segmentRows });
      await database.db.insertInto('analyses').values(database.dialect === 'sqlite' ? { ...row, seq: 1 } : row).execute();
      expect(await new SqlAnalysisStore(database).get(a.trackKey)).toEqual(a);
    });
  });
}

describeSegments('SQLite', recordedSqlite);
describeWith({ postgres: true })('Postgres', () => {
  describeSegments('Postgres', recordedPostgres);
});
