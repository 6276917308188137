import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { Client } from 'pg';
import { from as copyStreamFrom } from 'pg-copy-streams';
import { embeddingRows, segmentsRow, toRow } from '../../src/analysis/store/sql.store';
import type { StoredAnalysis } from '../../src/core/types';
import type { AnalysisTagsTable } from '../../src/db/database';

/*
 * A bulk load of stored analyses into a migrated, empty schema, for the benchmarks that need a
 * million of them (bench/browse.ts): the same rows the store writes (toRow, tagRows,
 * segmentsRow; seq = i + 1), in one transaction, the indexes of the loaded tables dropped first
 * and built again after (one sort per index instead of 50 million b-tree insertions). Tested
 * against the store's own writes: test/integration/db/bulk-load.test.ts.
 */

/** What is loaded: analyses 0 … count − 1 and each one's tag rows (seq left 0: set to i + 1 here). */
export interface BulkSource {
  count: number;
  analysisAt(i: number): StoredAnalysis;
  tagRowsAt(i: number): readonly AnalysisTagsTable[];
}

/** Where a load's time went, in milliseconds. */
export interface BulkLoadTimes {
  /** The rows written, index-less (building them in JS included). */
  load: number;
  /** Of `load`, building the rows' values and text in JS. */
  build: number;
  /** Each index (or constraint) built after the load, in the order built. */
  indexes: { name: string; ms: number }[];
  total: number;
}

/** The tables a load fills; their indexes are dropped before it and built after it. */
export const LOADED_TABLES = ['analyses', 'analysis_tags', 'analysis_segments', 'analysis_embeddings'] as const;

/** Analyses per batch: their rows are built, then written, before the next batch's are built. */
const BATCH = 2000;

/** Rows of the three tables for analyses [from, to), in storage order. */
function batchRows(source: BulkSource, from: number, to: number) {
  const analyses: Record<string, unknown>[] = [];
  const tags: number[] = [];
  const segments: { seq: number; segments: string }[] = [];
  const embeddings: { seq: number; kind: string; vector: Uint8Array }[] = [];
  for (let i = from; i < to; i++) {
    const seq = i + 1;
    const analysis = source.analysisAt(i);
    analyses.push({ ...toRow(analysis), seq });
    const segment = segmentsRow(seq, analysis);
    if (segment) segments.push(segment);
    embeddings.push(...embeddingRows(seq, analysis));
    for (const t of source.tagRowsAt(i)) tags.push(seq, t.tag, t.milli, t.rank);
  }
  return { analyses, tags, segments, embeddings };
}

/**
 * SQLite: on a connection of its own (no other may be open on the file: the journal is switched
 * off for the load), one transaction: the indexes dropped, each table filled by prepared
 * multi-row INSERTs reused batch after batch, the indexes built again, sorting in memory on two
 * threads; then the file back in WAL, as the service opens it. No journal and no syncs: for a
 * benchmark's own file, which a failed load leaves for nobody to read.
 */
export function bulkLoadSqlite(file: string, source: BulkSource): BulkLoadTimes {
  const raw = new SQLite(file);
  try {
    raw.unsafeMode(true); // better-sqlite3's defensive mode refuses journal_mode = OFF
    const mode = raw.pragma('journal_mode = OFF', { simple: true });
    if (mode !== 'off') throw new Error(`bulkLoadSqlite: journal_mode stayed ${String(mode)} (another connection open on ${file}?)`);
    raw.pragma('synchronous = OFF');
    raw.pragma('cache_size = -2000000');
    raw.pragma('temp_store = MEMORY');
    raw.pragma('threads = 2');
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
    const times: BulkLoadTimes = { load: 0, build: 0, indexes: [], total: 0 };
    raw.transaction(() => {
      for (const { name } of indexes) raw.exec(`drop index "${name}"`);
      let columns: string[] | undefined;
      for (let i = 0; i < source.count; i += BATCH) {
        const built = Date.now();
        const { analyses, tags, segments, embeddings } = batchRows(source, i, Math.min(source.count, i + BATCH));
        columns ??= Object.keys(analyses[0]!);
        const values = analyses.flatMap((r) => columns!.map((c) => r[c]));
        times.build += Date.now() - built;
        insertAll('analyses', columns, values);
        insertAll('analysis_tags', ['seq', 'tag', 'milli', 'rank'], tags);
        insertAll('analysis_segments', ['seq', 'segments'], segments.flatMap((s) => [s.seq, s.segments]));
        insertAll('analysis_embeddings', ['seq', 'kind', 'vector'], embeddings.flatMap((e) => [e.seq, e.kind, Buffer.from(e.vector.buffer, e.vector.byteOffset, e.vector.byteLength)]));
      }
      times.load = Date.now() - started;
      for (const { name, sql } of indexes) {
        const at = Date.now();
        raw.exec(sql);
        times.indexes.push({ name, ms: Date.now() - at });
      }
    })();
    raw.pragma('journal_mode = WAL');
    times.total = Date.now() - started;
    return times;
  } finally {
    raw.close();
  }
}

/**
 * Postgres: on a connection of its own, one transaction: the indexes and the constraints they
 * back dropped, each batch's rows sent by COPY … FROM STDIN in its text format (copyFrom), the
 * indexes built again with a larger maintenance_work_mem, and the seq sequence moved past the
 * rows loaded.
 */
export async function bulkLoadPostgres(url: string, schema: string, source: BulkSource): Promise<BulkLoadTimes> {
  const client = new Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const started = Date.now();
    const times: BulkLoadTimes = { load: 0, build: 0, indexes: [], total: 0 };
    await client.query(`set maintenance_work_mem = '2GB'; set synchronous_commit = off`);
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
    let columns: string[] | undefined;
    for (let i = 0; i < source.count; i += BATCH) {
      const built = Date.now();
      const { analyses, tags, segments, embeddings } = batchRows(source, i, Math.min(source.count, i + BATCH));
      columns ??= Object.keys(analyses[0]!);
      const analysesText = analyses.map((r) => `${columns!.map((c) => copyField(r[c])).join('\t')}\n`).join('');
      let tagsText = '';
      for (let k = 0; k < tags.length; k += 4) tagsText += `${tags[k]}\t${tags[k + 1]}\t${tags[k + 2]}\t${tags[k + 3]}\n`;
      const segmentsText = segments.map((s) => `${s.seq}\t${copyField(s.segments)}\n`).join('');
      // bytea in COPY's text format: \\x and the bytes in hex (the backslash escaped).
      const embeddingsText = embeddings.map((e) => `${e.seq}\t${copyField(e.kind)}\t\\\\x${Buffer.from(e.vector.buffer, e.vector.byteOffset, e.vector.byteLength).toString('hex')}\n`).join('');
      times.build += Date.now() - built;
      await copyFrom(client, `copy analyses (${columns.map((c) => `"${c}"`).join(', ')}) from stdin`, [analysesText]);
      await copyFrom(client, 'copy analysis_tags (seq, tag, milli, rank) from stdin', [tagsText]);
      if (segmentsText) await copyFrom(client, 'copy analysis_segments (seq, segments) from stdin', [segmentsText]);
      if (embeddingsText) await copyFrom(client, 'copy analysis_embeddings (seq, kind, vector) from stdin', [embeddingsText]);
    }
    times.load = Date.now() - started;
    for (const ix of indexes) {
      const at = Date.now();
      await client.query(ix.constraint ? `alter table "${ix.table}" add constraint "${ix.constraint}" ${ix.constraintdef}` : ix.definition);
      times.indexes.push({ name: ix.name, ms: Date.now() - at });
    }
    await client.query(`select setval(pg_get_serial_sequence('analyses', 'seq'), ${Math.max(source.count, 1)}, ${source.count > 0})`);
    await client.query('commit');
    times.total = Date.now() - started;
    return times;
  } finally {
    await client.end();
  }
}

/**
 * COPY … FROM STDIN on a pg Client (pg-copy-streams), its text sent chunk by chunk with the
 * stream's back-pressure; a producer's error aborts the COPY (CopyFail), the server's rejects the
 * promise. Resolves to the rows copied.
 */
export async function copyFrom(client: Client, statement: string, chunks: AsyncIterable<string> | Iterable<string>): Promise<number> {
  const stream = client.query(copyStreamFrom(statement));
  await pipeline(Readable.from(chunks, { objectMode: false }), stream);
  return stream.rowCount;
}

/** A value as a field of COPY's text format: \N for none; text with its backslashes and control characters escaped. */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t')) : text;
}
