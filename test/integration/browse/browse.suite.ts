import { sql } from 'kysely';
import { BrowseService, TRACK_ORDER_FIELDS, type TrackFilter, type TrackOrderField, type TracksRequest } from '../../../src/analysis/browse.service';
import { SqlAnalysisStore, toRow } from '../../../src/analysis/store/sql.store';
import { SqlTracksQuery } from '../../../src/analysis/store/tracks.query';
import { isAppError } from '../../../src/core/errors';
import { trackKey } from '../../../src/core/track-key';
import type { StoredAnalysis } from '../../../src/core/types';
import type { Database } from '../../../src/db/database';
import { migrateToLatest } from '../../../src/db/migrations';

/*
 * One suite for browsing (tracks, similar) run on SQLite and on Postgres. Expected answers are
 * computed here in JS from the seeded rows, so every filter and ordering is checked against an
 * independent reading of the same data.
 */

export interface BrowseFixture {
  database: Database;
  close(): Promise<void>;
}

/** Deterministic pseudo-random values in [0,1) (a small LCG), so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

export function analysisOf(artist: string, trackName: string, patch: Partial<StoredAnalysis['features']> = {}, seed = 1): StoredAnalysis {
  const r = rng(seed * 7 + trackName.length);
  const u = (): number => Math.round(r() * 1000) / 1000;
  return {
    trackKey: trackKey(artist, trackName),
    artist,
    trackName,
    analysedAt: '2026-01-01T00:00:00.000Z',
    source: 'library',
    features: {
      durationMs: 100_000 + Math.round(r() * 200_000),
      tempo: 60 + Math.round(r() * 1200) / 10,
      key: Math.floor(r() * 12),
      mode: r() < 0.5 ? 0 : 1,
      timeSignature: r() < 0.3 ? 3 : 4,
      loudness: -30 + u() * 25,
      energy: u(),
      liveness: u(),
      danceability: u(),
      instrumentalness: u(),
      speechiness: u(),
      valence: u(),
      arousal: u(),
      approachability: u(),
      engagement: u(),
      mood: { happy: u(), sad: u(), relaxed: u(), aggressive: u() },
      confidence: { tempo: u(), key: u(), mode: u(), timeSignature: u() },
      timeline: { beats: [{ start: 0.5, duration: 0.5, confidence: 0.9 }], bars: [], sections: [] },
      engine: 'test',
      ...patch,
    },
  };
}

/** The value a TrackOrderField orders by, read from a stored analysis (seq from insertion order). */
function valueOf(a: StoredAnalysis, field: TrackOrderField, seq: number): number {
  const f = a.features;
  const map: Record<TrackOrderField, number> = {
    ANALYSED_AT: seq, TEMPO: f.tempo, DURATION_MS: f.durationMs, LOUDNESS: f.loudness, ENERGY: f.energy,
    LIVENESS: f.liveness, DANCEABILITY: f.danceability, INSTRUMENTALNESS: f.instrumentalness,
    SPEECHINESS: f.speechiness, VALENCE: f.valence, AROUSAL: f.arousal, APPROACHABILITY: f.approachability,
    ENGAGEMENT: f.engagement, MOOD_HAPPY: f.mood.happy, MOOD_SAD: f.mood.sad, MOOD_RELAXED: f.mood.relaxed,
    MOOD_AGGRESSIVE: f.mood.aggressive,
  };
  return map[field];
}

const RANGE_FILTERS: ReadonlyArray<readonly [string, (f: TrackFilter, r: { min: number; max: number }) => void, TrackOrderField]> = [
  ['tempo', (f, r) => (f.tempo = r), 'TEMPO'],
  ['durationMs', (f, r) => (f.durationMs = r), 'DURATION_MS'],
  ['loudness', (f, r) => (f.loudness = r), 'LOUDNESS'],
  ['energy', (f, r) => (f.energy = r), 'ENERGY'],
  ['liveness', (f, r) => (f.liveness = r), 'LIVENESS'],
  ['danceability', (f, r) => (f.danceability = r), 'DANCEABILITY'],
  ['instrumentalness', (f, r) => (f.instrumentalness = r), 'INSTRUMENTALNESS'],
  ['speechiness', (f, r) => (f.speechiness = r), 'SPEECHINESS'],
  ['valence', (f, r) => (f.valence = r), 'VALENCE'],
  ['arousal', (f, r) => (f.arousal = r), 'AROUSAL'],
  ['approachability', (f, r) => (f.approachability = r), 'APPROACHABILITY'],
  ['engagement', (f, r) => (f.engagement = r), 'ENGAGEMENT'],
  ['mood.happy', (f, r) => (f.mood = { happy: r }), 'MOOD_HAPPY'],
  ['mood.sad', (f, r) => (f.mood = { sad: r }), 'MOOD_SAD'],
  ['mood.relaxed', (f, r) => (f.mood = { relaxed: r }), 'MOOD_RELAXED'],
  ['mood.aggressive', (f, r) => (f.mood = { aggressive: r }), 'MOOD_AGGRESSIVE'],
];

export function describeBrowse(name: string, open: () => Promise<BrowseFixture>): void {
  describe(`browsing stored analyses on ${name}`, () => {
    let fixture: BrowseFixture;
    let browse: BrowseService;
    let store: SqlAnalysisStore;
    let query: SqlTracksQuery;
    /** Seeded analyses in insertion order (index + 1 = seq order). */
    let seeded: StoredAnalysis[];

    const save = async (a: StoredAnalysis): Promise<void> => {
      expect(await store.save(a)).toBe(true);
      seeded.push(a);
    };

    /** Every page of a request, concatenated, with the pages' sizes. */
    const all = async (request: TracksRequest): Promise<{ keys: string[]; pages: number[] }> => {
      const keys: string[] = [];
      const pages: number[] = [];
      let after: string | null = null;
      for (let guard = 0; guard < 100; guard++) {
        const page = await browse.tracks({ ...request, after });
        keys.push(...page.edges.map((e) => e.node.trackKey));
        pages.push(page.edges.length);
        if (!page.pageInfo.hasNextPage) {
          expect(page.pageInfo.endCursor).toBe(page.edges.length > 0 ? page.edges[page.edges.length - 1]!.cursor : null);
          return { keys, pages };
        }
        after = page.pageInfo.endCursor;
      }
      throw new Error('pagination did not end');
    };

    /** What a request should answer, computed in JS: filter, then (value, seq) order. */
    const expected = (keep: (a: StoredAnalysis) => boolean, field: TrackOrderField, direction: 'ASC' | 'DESC'): string[] => {
      const sign = direction === 'ASC' ? 1 : -1;
      return seeded
        .map((a, i) => ({ a, seq: i + 1 }))
        .filter(({ a }) => keep(a))
        .sort((x, y) => sign * (valueOf(x.a, field, x.seq) - valueOf(y.a, field, y.seq) || x.seq - y.seq))
        .map(({ a }) => a.trackKey);
    };

    const invalid = async (request: TracksRequest): Promise<string> => {
      try {
        await browse.tracks(request);
      } catch (error) {
        if (isAppError(error) && error.code === 'INVALID_ARGUMENT') return error.message;
        throw error;
      }
      throw new Error('expected INVALID_ARGUMENT');
    };

    beforeEach(async () => {
      fixture = await open();
      await migrateToLatest(fixture.database.db, fixture.database.dialect, fixture.database.schema);
      store = new SqlAnalysisStore(fixture.database);
      query = new SqlTracksQuery(fixture.database);
      browse = new BrowseService(query, store);
      seeded = [];
      for (let i = 0; i < 24; i++) await save(analysisOf(i % 3 === 0 ? 'The Calm Ones' : `Artist ${i}`, `Song ${i}`, {}, i + 1));
      // Ties on tempo and energy: the seq tiebreak must order them.
      await save(analysisOf('Tie', 'One', { tempo: 100, energy: 0.5 }, 101));
      await save(analysisOf('Tie', 'Two', { tempo: 100, energy: 0.5 }, 102));
      await save(analysisOf('Tie', 'Three', { tempo: 100, energy: 0.5 }, 103));
      await save(analysisOf('50%_off\\band', 'Percent', {}, 104));
    });
    afterEach(() => fixture.close());

    it('orders by every field, both directions, with seq breaking ties, across pages of 5', async () => {
      for (const field of Object.keys(TRACK_ORDER_FIELDS) as TrackOrderField[]) {
        for (const direction of ['ASC', 'DESC'] as const) {
          const got = await all({ orderBy: { field, direction }, first: 5 });
          expect({ field, direction, keys: got.keys }).toEqual({ field, direction, keys: expected(() => true, field, direction) });
          expect(got.pages).toEqual([5, 5, 5, 5, 5, 3]);
        }
      }
    });

    it('filters by a range of every descriptor and mood (inclusive bounds)', async () => {
      for (const [label, set, field] of RANGE_FILTERS) {
        const values = seeded.map((a, i) => valueOf(a, field, i + 1)).sort((x, y) => x - y);
        const range = { min: values[5]!, max: values[20]! };
        const filter: TrackFilter = {};
        set(filter, range);
        const got = await all({ filter, orderBy: { field: 'ANALYSED_AT', direction: 'ASC' }, first: 100 });
        const want = expected((a) => {
          const v = valueOf(a, field, 0);
          return v >= range.min && v <= range.max;
        }, 'ANALYSED_AT', 'ASC');
        expect({ label, keys: got.keys }).toEqual({ label, keys: want });
        expect(want.length).toBeGreaterThanOrEqual(16);
      }
    });

    it('filters by key list, mode, time signature, and combines every filter given', async () => {
      const keys = [0, 4, 9];
      expect((await all({ filter: { key: keys }, first: 100 })).keys.sort()).toEqual(
        seeded.filter((a) => keys.includes(a.features.key)).map((a) => a.trackKey).sort(),
      );
      for (const mode of [0, 1]) {
        expect((await all({ filter: { mode }, first: 100 })).keys.sort()).toEqual(
          seeded.filter((a) => a.features.mode === mode).map((a) => a.trackKey).sort(),
        );
      }
      expect((await all({ filter: { timeSignature: [3] }, first: 100 })).keys.sort()).toEqual(
        seeded.filter((a) => a.features.timeSignature === 3).map((a) => a.trackKey).sort(),
      );
      const combined = await all({
        filter: { mode: 1, tempo: { min: 80 }, energy: { max: 0.8 }, artist: 'artist' },
        orderBy: { field: 'VALENCE', direction: 'DESC' },
        first: 3,
      });
      const want = expected(
        (a) => a.features.mode === 1 && a.features.tempo >= 80 && a.features.energy <= 0.8 && /artist/i.test(a.artist),
        'VALENCE',
        'DESC',
      );
      expect(combined.keys).toEqual(want);
      expect(want.length).toBeGreaterThan(0);
    });

    it('matches artist and title text case-insensitively as a substring, % and _ and \\ as themselves', async () => {
      expect((await all({ filter: { artist: 'calm ONES' }, first: 100 })).keys.sort()).toEqual(
        seeded.filter((a) => a.artist === 'The Calm Ones').map((a) => a.trackKey).sort(),
      );
      expect((await all({ filter: { trackName: 'SONG 1' }, first: 100 })).keys).toHaveLength(11);
      expect((await all({ filter: { artist: '50%_off\\' }, first: 100 })).keys).toEqual([trackKey('50%_off\\band', 'Percent')]);
      expect((await all({ filter: { artist: '5%f' }, first: 100 })).keys).toEqual([]);
      expect((await all({ filter: { artist: '_' }, first: 100 })).keys).toEqual([trackKey('50%_off\\band', 'Percent')]);
    });

    it('when nothing matches, then no edges, no next page and null cursors', async () => {
      const page = await browse.tracks({ filter: { tempo: { min: 500 } } });
      expect(page.edges).toEqual([]);
      expect(page.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
      expect(await browse.count(page.filter)).toBe(0);
    });

    it('when a page ends exactly at the last match, then hasNextPage is false and the next cursor gives nothing', async () => {
      const first = await browse.tracks({ orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 14 });
      const second = await browse.tracks({ orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 14, after: first.pageInfo.endCursor });
      expect(first.pageInfo.hasNextPage).toBe(true);
      expect(second.edges).toHaveLength(14);
      expect(second.pageInfo.hasNextPage).toBe(false);
      const beyond = await browse.tracks({ orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 14, after: second.pageInfo.endCursor });
      expect(beyond.edges).toEqual([]);
      expect(await browse.count(first.filter)).toBe(28);
    });

    it('when analyses arrive between pages, then the next page continues after the cursor: nothing repeated or skipped', async () => {
      const request = { filter: { energy: { min: 0.1 } }, orderBy: { field: 'ENERGY', direction: 'DESC' }, first: 6 } as const;
      const page1 = await browse.tracks(request);
      const cursorEnergy = page1.edges[page1.edges.length - 1]!.node.features.energy;
      // One before the cursor (already passed: must not appear), one after it, one tied with it (after it by seq).
      await save(analysisOf('New', 'Loud', { energy: Math.min(1, cursorEnergy + 0.05) }, 201));
      await save(analysisOf('New', 'Quiet', { energy: cursorEnergy - 0.0001 }, 202));
      await save(analysisOf('New', 'Tied', { energy: cursorEnergy }, 203));
      const rest: string[] = [];
      let after = page1.pageInfo.endCursor;
      for (;;) {
        const page = await browse.tracks({ ...request, after });
        rest.push(...page.edges.map((e) => e.node.trackKey));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      const seen = [...page1.edges.map((e) => e.node.trackKey), ...rest];
      expect(new Set(seen).size).toBe(seen.length);
      expect(rest).not.toContain(trackKey('New', 'Loud'));
      expect(rest).toContain(trackKey('New', 'Quiet'));
      // seq of the tied row is the newest, so in DESC order it sorts before the cursor's row: passed.
      expect(rest).not.toContain(trackKey('New', 'Tied'));
      expect(seen.sort()).toEqual(
        expected((a) => a.features.energy >= 0.1, 'ENERGY', 'DESC')
          .filter((k) => k !== trackKey('New', 'Loud') && k !== trackKey('New', 'Tied'))
          .sort(),
      );
    });

    it('refuses bad arguments with INVALID_ARGUMENT', async () => {
      expect(await invalid({ filter: { tempo: { min: 120, max: 90 } } })).toMatch(/min \(120\) is above max \(90\)/);
      expect(await invalid({ first: 0 })).toMatch(/first/);
      expect(await invalid({ first: 101 })).toMatch(/first/);
      expect(await invalid({ filter: { key: [12] } })).toMatch(/key/);
      expect(await invalid({ filter: { mode: 2 } })).toMatch(/mode/);
      expect(await invalid({ filter: { artist: '  ' } })).toMatch(/artist must not be empty/);
      expect(await invalid({ after: 'not-a-cursor' })).toMatch(/not a cursor/);
      const page = await browse.tracks({ orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 2 });
      expect(await invalid({ orderBy: { field: 'ENERGY', direction: 'ASC' }, after: page.pageInfo.endCursor })).toMatch(/belongs to orderBy TEMPO ASC/);
    });

    it('similar: nearest first by the documented distance, never the track itself, relative keys close', async () => {
      const base = { tempo: 120, key: 0, mode: 1, energy: 0.5, liveness: 0.1, danceability: 0.6, instrumentalness: 0.2, speechiness: 0.05,
        valence: 0.6, arousal: 0.5, approachability: 0.7, engagement: 0.5, mood: { happy: 0.6, sad: 0.2, relaxed: 0.3, aggressive: 0.1 } };
      await save(analysisOf('Seed', 'C major', base, 300));
      await save(analysisOf('Near', 'A minor', { ...base, key: 9, mode: 0 }, 301));
      await save(analysisOf('Near', 'G major faster', { ...base, key: 7, tempo: 126 }, 302));
      await save(analysisOf('Far', 'F# major', { ...base, key: 6 }, 303));
      await save(analysisOf('Near', 'C major sadder', { ...base, valence: 0.3, mood: { ...base.mood, happy: 0.3, sad: 0.5 } }, 304));
      const got = await browse.similar(trackKey('Seed', 'C major'), 3);
      // G: one fifth (1/6) and 5% faster (2·log2(1.05)); A minor: same place on the circle, other mode (0.5).
      expect(got.map((s) => s.analysis.trackName)).toEqual(['G major faster', 'A minor', 'C major sadder']);
      expect(got[0]!.distance).toBeCloseTo(Math.hypot(1 / 6, 2 * Math.log2(1.05)), 5);
      expect(got[1]!.distance).toBeCloseTo(0.5, 6);
      expect(got[2]!.distance).toBeCloseTo(Math.sqrt(0.27), 6);
      await expect(browse.similar(trackKey('No', 'Such'), 3)).rejects.toMatchObject({ code: 'TRACK_NOT_FOUND' });
      await expect(browse.similar('nope', 3)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('a page reads an index, not the table: the order index, or a selective range filter’s index', async () => {
      const rows = [];
      for (let i = 0; i < 3000; i++) {
        const bulk = analysisOf(`Bulk ${i % 50}`, `Bulk ${i}`, {}, 1000 + i);
        seeded.push(bulk);
        rows.push({ ...toRow(bulk) });
      }
      for (let i = 0; i < rows.length; i += 200) await fixture.database.db.insertInto('analyses').values(rows.slice(i, i + 200).map((r, j) => (fixture.database.dialect === 'sqlite' ? { ...r, seq: 10_000 + i + j } : r))).execute();
      // Postgres plans by statistics, which autovacuum would gather a little later.
      if (fixture.database.dialect === 'postgres') await sql`analyze analyses`.execute(fixture.database.db);
      const ordered = (await browse.explain({ filter: { tempo: { min: 70 } }, orderBy: { field: 'MOOD_HAPPY', direction: 'DESC' } })).join('\n');
      const selective = (await browse.explain({ filter: { tempo: { min: 100, max: 100.5 } }, orderBy: { field: 'ENERGY', direction: 'DESC' } })).join('\n');
      if (fixture.database.dialect === 'sqlite') {
        expect(ordered).toMatch(/USING INDEX analyses_by_mood_happy/);
        expect(ordered).not.toMatch(/TEMP B-TREE/);
        expect(selective).toMatch(/SEARCH analyses USING INDEX analyses_by_tempo \(tempo>\? AND tempo<\?\)/);
      } else {
        expect(ordered).toMatch(/Index Scan (Backward )?using analyses_by_mood_happy/);
        expect(selective).toMatch(/analyses_by_tempo/);
      }
      expect(`${ordered}\n${selective}`).not.toMatch(/^(SCAN analyses$|.*Seq Scan)/m);
      // A loose range (over 2,000 rows) and a key: on SQLite full pages come from a bounded walk of
      // the order index, the last from the range's index. The same answer as computed here.
      const got = await all({ filter: { energy: { min: 0.05 }, key: [3] }, orderBy: { field: 'TEMPO', direction: 'DESC' }, first: 40 });
      expect(got.keys).toEqual(expected((a) => a.features.energy >= 0.05 && a.features.key === 3, 'TEMPO', 'DESC'));
      if (fixture.database.dialect === 'sqlite') {
        expect((await browse.explain({ filter: { energy: { min: 0.05 }, key: [3] }, orderBy: { field: 'TEMPO', direction: 'DESC' }, first: 40 })).join('\n')).toMatch(
          /CO-ROUTINE walk\nSCAN analyses USING INDEX analyses_by_tempo/,
        );
      }
      expect(got.pages.length).toBeGreaterThan(2);
    });

    it('loose range filters rare together, or rare where the order starts: the exact answer from the filters’ indexes, no full scan', async () => {
      // energy = x, danceability = x + 0.5 (mod 1), tempo rises with x, relaxed falls with it:
      // energy ≥ 0.6 and danceability ≥ 0.6 are each 40% of the rows and never true together,
      // except for 7 rows made so, at the far end of the tempo order; tempo ≥ 114 holds where
      // relaxed is lowest.
      const rows = [];
      for (let i = 0; i < 6000; i++) {
        const x = ((i * 37) % 1000) / 1000;
        const special = i % 857 === 5;
        const a = analysisOf(`Corr ${i % 40}`, `Corr ${i}`, {
          energy: special ? 0.9 : x,
          danceability: special ? 0.95 : (x + 0.5) % 1,
          tempo: special ? 175 + (i % 5) : 60 + x * 120,
          mood: { happy: 0.5, sad: 0.5, relaxed: 1 - x, aggressive: 0.5 },
          mode: i % 2,
        }, 5000 + i);
        seeded.push(a);
        rows.push(toRow(a));
      }
      const sqlite = fixture.database.dialect === 'sqlite';
      for (let i = 0; i < rows.length; i += 500) {
        await fixture.database.db.insertInto('analyses').values(rows.slice(i, i + 500).map((r, j) => (sqlite ? { ...r, seq: 20_000 + i + j } : r))).execute();
      }
      if (!sqlite) await sql`analyze analyses`.execute(fixture.database.db);

      const rare: TracksRequest = { filter: { energy: { min: 0.6 }, danceability: { min: 0.6 } }, orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 3 };
      const rareWant = expected((a) => a.features.energy >= 0.6 && a.features.danceability >= 0.6, 'TEMPO', 'ASC');
      expect(rareWant.length).toBeGreaterThanOrEqual(7);
      expect((await all(rare)).keys).toEqual(rareWant);
      const rarePlan = (await browse.explain(rare)).join('\n');

      const tail: TracksRequest = { filter: { tempo: { min: 114 }, mode: 0 }, orderBy: { field: 'MOOD_RELAXED', direction: 'DESC' }, first: 100 };
      const tailWant = expected((a) => a.features.tempo >= 114 && a.features.mode === 0, 'MOOD_RELAXED', 'DESC');
      expect(tailWant.length).toBeGreaterThan(1000);
      const got = await all(tail);
      expect(got.keys).toEqual(tailWant);
      expect(got.pages.length).toBeGreaterThan(10);
      const tailPlan = (await browse.explain(tail)).join('\n');

      if (sqlite) {
        // Both ranges read index-only as rowid sets, the few candidates then read by rowid and sorted.
        expect(rarePlan).toMatch(/SEARCH analyses USING COVERING INDEX analyses_by_energy \(energy>\?\)/);
        expect(rarePlan).toMatch(/SEARCH analyses USING COVERING INDEX analyses_by_danceability \(danceability>\?\)/);
        expect(rarePlan).toMatch(/SEARCH analyses USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        // Many candidates: the order index is walked, each entry's rowid tested before its row is read.
        expect(tailPlan).toMatch(/SEARCH analyses USING COVERING INDEX analyses_by_tempo \(tempo>\?\)/);
        expect(tailPlan).toMatch(/then:\nSCAN analyses USING INDEX analyses_by_mood_relaxed\nLIST SUBQUERY/);
      } else {
        // The bounded walk of the order index, then bitmap reads of the filters' indexes.
        expect(rarePlan).toMatch(/Index Scan using analyses_by_tempo[\s\S]*then:[\s\S]*Bitmap Index Scan on analyses_by_(energy|danceability)/);
        // (mode and tempo are both in (key, mode, tempo): the planner may read that index instead.)
        expect(tailPlan).toMatch(/Index Scan Backward using analyses_by_mood_relaxed[\s\S]*then:[\s\S]*Bitmap Index Scan on analyses_by_(tempo|key_mode_tempo)/);
      }
      expect(`${rarePlan}\n${tailPlan}`).not.toMatch(/^(SCAN analyses$|.*Seq Scan)/m);

      // A cursor from this path stays a keyset position: a rare match stored before it is passed,
      // one stored after it comes next.
      const page1 = await browse.tracks({ ...rare, first: 2 });
      const cursorTempo = page1.edges[1]!.node.features.tempo;
      await save(analysisOf('Late', 'Before', { energy: 0.99, danceability: 0.99, tempo: cursorTempo - 0.01 }, 9001));
      await save(analysisOf('Late', 'After', { energy: 0.99, danceability: 0.99, tempo: cursorTempo + 0.001 }, 9002));
      const page2 = await browse.tracks({ ...rare, first: 2, after: page1.pageInfo.endCursor });
      expect(page2.edges[0]!.node.trackKey).toBe(trackKey('Late', 'After'));
      expect(page2.edges.map((e) => e.node.trackKey)).not.toContain(trackKey('Late', 'Before'));
    });
  });
}
