import { BrowseIndex } from '../../../src/analysis/store/browse.index';
import { SqlAnalysisStore, toRow } from '../../../src/analysis/store/sql.store';
import { SqlTracksQuery, type TracksPageRequest } from '../../../src/analysis/store/tracks.query';
import type { Database } from '../../../src/db/database';
import { onBothDatabases, type DatabasePair } from '../../helpers/database-pair';
import { analysisOf } from './browse.suite';

/*
 * The in-memory browse index kept up to date with writes made through other connections (another
 * API node, a worker): each call reads what changed since the last one. Two connections to one
 * database stand for two processes. The answers themselves are checked by the browse suite, run
 * through the index (browse.*.test.ts).
 */


const byTempo = (min: number, max: number): TracksPageRequest => ({ filter: { ranges: { tempo: { min, max } } }, order: { column: 'tempo', direction: 'asc' }, limit: 50 });
const keysOf = async (query: SqlTracksQuery, request: TracksPageRequest): Promise<string[]> => (await query.page(request)).map((r) => r.analysis.trackKey);

function describeIndex(name: string, open: () => Promise<DatabasePair>): void {
  describe(`the browse index on ${name}`, () => {
    let pair: DatabasePair;
    let index: BrowseIndex;
    let query: SqlTracksQuery;
    let writes: SqlAnalysisStore;

    beforeEach(async () => {
      pair = await open();
      writes = new SqlAnalysisStore(pair.writer);
      for (let i = 0; i < 30; i++) await writes.save(analysisOf(`Artist ${i}`, `Song ${i}`, { tempo: 100 + i, tags: [{ name: 'rock', probability: 0.2 + i / 100 }] }, i + 1));
      index = new BrowseIndex(pair.reader, undefined, { wait: true });
      query = new SqlTracksQuery(pair.reader, index);
    });
    afterEach(async () => {
      await pair.close();
    });

    it('sees analyses another connection stores or replaces after the load, tags included, at the next call', async () => {
      expect(await keysOf(query, byTempo(100, 102))).toHaveLength(3);
      expect(index.size).toBe(30);
      const added = analysisOf('Later', 'Added', { tempo: 101.5, tags: [{ name: 'jazz', probability: 0.9 }] }, 99);
      await writes.save(added);
      expect(await keysOf(query, byTempo(101, 102))).toEqual([analysisOf('Artist 1', 'Song 1', {}, 2).trackKey, added.trackKey, analysisOf('Artist 2', 'Song 2', {}, 3).trackKey]);
      // A replacement moves an analysis out of the range and gives it other tags.
      await writes.replace(analysisOf('Artist 1', 'Song 1', { tempo: 180, tags: [{ name: 'jazz', probability: 0.8 }] }, 2));
      expect(await keysOf(query, byTempo(101, 102))).toEqual([added.trackKey, analysisOf('Artist 2', 'Song 2', {}, 3).trackKey]);
      const jazz = await query.page({ filter: { tags: [{ names: ['jazz'], min: 0.5 }] }, order: { tag: 'jazz', direction: 'desc' }, limit: 10 });
      expect(jazz.map((r) => [r.analysis.trackKey, r.value])).toEqual([
        [added.trackKey, 900],
        [analysisOf('Artist 1', 'Song 1', {}, 2).trackKey, 800],
      ]);
      expect(await query.count({ tags: [{ names: ['rock'] }] })).toBe(29);
      expect(index.size).toBe(31);
    });

    it('finds a row written without a revision (a bulk load, an older version) by its seq', async () => {
      await query.count({});
      const row = toRow(analysisOf('Bulk', 'Loaded', { tempo: 250 }, 500));
      await pair.writer.db.insertInto('analyses').values(pair.writer.dialect === 'sqlite' ? { ...row, seq: 1000 } : row).execute();
      expect(await keysOf(query, byTempo(240, 260))).toEqual([analysisOf('Bulk', 'Loaded', {}, 500).trackKey]);
    });

    it('without waiting, answers from the database until the load is done, then from the index', async () => {
      const background = new BrowseIndex(pair.reader);
      const lazy = new SqlTracksQuery(pair.reader, background);
      expect(await background.fresh()).toBe(false);
      expect(await keysOf(lazy, byTempo(100, 101))).toHaveLength(2);
      await background.load();
      expect(await background.fresh()).toBe(true);
      expect(await keysOf(lazy, byTempo(100, 101))).toEqual(await keysOf(new SqlTracksQuery(pair.reader), byTempo(100, 101)));
      expect((await lazy.explainPage(byTempo(100, 101))).join('\n')).toMatch(/^browse index \(memory\): a scan of 30 analyses, 2 kept/);
      // A tag is loaded at its first use: until then the database answers that page.
      expect(await background.fresh(['rock'])).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await background.fresh(['rock'])).toBe(true);
      expect(await lazy.count({ tags: [{ names: ['rock'], min: 0.4 }] })).toBe(10);
    });

    it('a failed load is reported, the database answers, and the next call loads again', async () => {
      const errors: unknown[] = [];
      // The reader's connection, refusing every statement while `away`.
      let away = true;
      const db = new Proxy(pair.reader.db, {
        get(target, prop) {
          if (away && prop === 'getExecutor') return () => { throw new Error('the database is away'); };
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const failing = new BrowseIndex({ dialect: pair.reader.dialect, db } as Database, (error) => errors.push(error));
      expect(await failing.fresh()).toBe(false);
      await expect(failing.load()).rejects.toThrow('the database is away');
      expect(errors.length).toBeGreaterThan(0);
      const reported = errors.length;
      away = false;
      await failing.load();
      expect(await failing.fresh()).toBe(true);
      expect(failing.size).toBe(30);
      expect(errors).toHaveLength(reported);
    });

    if (name === 'Postgres') {
      it('a transaction that commits after a later one is still seen (revisions are transaction ids)', async () => {
        await query.count({});
        const early = analysisOf('Early', 'Begun', { tempo: 300 }, 600);
        const late = analysisOf('Late', 'Committed', { tempo: 301 }, 601);
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let begun!: () => void;
        const started = new Promise<void>((resolve) => (begun = resolve));
        const first = pair.writer.db.transaction().execute(async (trx) => {
          await trx.insertInto('analyses').values(toRow(early)).execute();
          begun();
          await held;
        });
        await started;
        await writes.save(late);
        expect(await keysOf(query, byTempo(299, 302))).toEqual([late.trackKey]);
        release();
        await first;
        expect(await keysOf(query, byTempo(299, 302))).toEqual([early.trackKey, late.trackKey]);
      });
    }
  });
}

onBothDatabases('browse-index', describeIndex);
