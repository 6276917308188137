import { sql } from 'kysely';
import {
  BrowseService,
  featureDistance,
  OCTAVE_PENALTY,
  TRACK_ORDER_FIELDS,
  type ColumnOrderField,
  type TrackFilter,
  type TracksRequest,
} from '../../../src/analysis/browse.service';
import { SqlAnalysisStore, toRow } from '../../../src/analysis/store/sql.store';
import { BrowseIndex } from '../../../src/analysis/store/browse.index';
import { SqlTracksQuery } from '../../../src/analysis/store/tracks.query';
import { DESCRIPTORS, columnOf } from '../../../src/core/descriptors';
import { isAppError } from '../../../src/core/errors';
import { trackKey } from '../../../src/core/track-key';
import { TAGGER_TAG_NAMES, taggerTag } from '../../../src/core/tags';
import type { StoredAnalysis, TagScore } from '../../../src/core/types';
import { refreshStatistics, type Database } from '../../../src/db/database';
import { migrateTo, migrateToLatest } from '../../../src/db/migrations';
import { tagId, tagRows } from '../../../src/db/tag-rows';

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
      acousticness: u(),
      mood: { happy: u(), sad: u(), relaxed: u(), aggressive: u() },
      confidence: { tempo: u(), key: u(), mode: u(), timeSignature: u() },
      timeline: { beats: [{ start: 0.5, duration: 0.5, confidence: 0.9 }], bars: [], sections: [] },
      engine: 'test',
      ...patch,
    },
  };
}

/** The tagger's 50 tags with pseudo-random probabilities (3 decimals), most probable first, as an analysis made with the models holds them. */
export function tagsOf(seed: number): TagScore[] {
  const r = rng(seed * 13 + 5);
  return TAGGER_TAG_NAMES.map((name) => ({ name, probability: Math.round(r() * r() * 1000) / 1000 }))
    .sort((a, b) => b.probability - a.probability || (a.name < b.name ? -1 : 1));
}

/**
 * A row as the schema of an early migration stored it: without the columns of descriptors added
 * to the registry since (`since`), which syncDescriptorColumns adds after the migrations.
 */
export function rowBeforeAddedDescriptors<T extends object>(row: T): T {
  const out = { ...row } as Record<string, unknown>;
  for (const d of DESCRIPTORS) if ((d as { since?: number }).since !== undefined) delete out[columnOf(d)];
  return out as T;
}

/** A tag's name as the tagger spells it. */
function taggerTagName(name: string): string {
  const tag = taggerTag(name);
  if (!tag) throw new Error(`no tag ${name}`);
  return tag;
}

/** The value a TrackOrderField orders by, read from a stored analysis (seq from insertion order). */
function valueOf(a: StoredAnalysis, field: ColumnOrderField, seq: number): number {
  const f = a.features;
  const map: Record<ColumnOrderField, number> = {
    ANALYSED_AT: seq, TEMPO: f.tempo, DURATION_MS: f.durationMs, LOUDNESS: f.loudness, ENERGY: f.energy,
    LIVENESS: f.liveness, DANCEABILITY: f.danceability, INSTRUMENTALNESS: f.instrumentalness,
    SPEECHINESS: f.speechiness, ACOUSTICNESS: f.acousticness, VALENCE: f.valence, AROUSAL: f.arousal, APPROACHABILITY: f.approachability,
    ENGAGEMENT: f.engagement, MOOD_HAPPY: f.mood.happy, MOOD_SAD: f.mood.sad, MOOD_RELAXED: f.mood.relaxed,
    MOOD_AGGRESSIVE: f.mood.aggressive,
  };
  return map[field];
}

/** Time allowed to a test of thousands of rows (see `heavy`). */
const HEAVY_TIMEOUT_MS = 120_000;

const RANGE_FILTERS: ReadonlyArray<readonly [string, (f: TrackFilter, r: { min: number; max: number }) => void, ColumnOrderField]> = [
  ['tempo', (f, r) => (f.tempo = r), 'TEMPO'],
  ['durationMs', (f, r) => (f.durationMs = r), 'DURATION_MS'],
  ['loudness', (f, r) => (f.loudness = r), 'LOUDNESS'],
  ['energy', (f, r) => (f.energy = r), 'ENERGY'],
  ['liveness', (f, r) => (f.liveness = r), 'LIVENESS'],
  ['danceability', (f, r) => (f.danceability = r), 'DANCEABILITY'],
  ['instrumentalness', (f, r) => (f.instrumentalness = r), 'INSTRUMENTALNESS'],
  ['speechiness', (f, r) => (f.speechiness = r), 'SPEECHINESS'],
  ['acousticness', (f, r) => (f.acousticness = r), 'ACOUSTICNESS'],
  ['valence', (f, r) => (f.valence = r), 'VALENCE'],
  ['arousal', (f, r) => (f.arousal = r), 'AROUSAL'],
  ['approachability', (f, r) => (f.approachability = r), 'APPROACHABILITY'],
  ['engagement', (f, r) => (f.engagement = r), 'ENGAGEMENT'],
  ['mood.happy', (f, r) => (f.mood = { happy: r }), 'MOOD_HAPPY'],
  ['mood.sad', (f, r) => (f.mood = { sad: r }), 'MOOD_SAD'],
  ['mood.relaxed', (f, r) => (f.mood = { relaxed: r }), 'MOOD_RELAXED'],
  ['mood.aggressive', (f, r) => (f.mood = { aggressive: r }), 'MOOD_AGGRESSIVE'],
];

/** The statements of explained pages but a SQLite bounded walk's first, which reads its bound from the order index alone. */
function pageStatements(plans: string): string {
  return plans
    .split(/\nthen:\n/)
    .filter((statement) => !/^SCAN analyses USING COVERING INDEX analyses_by_\w+$/.test(statement))
    .join('\nthen:\n');
}

/**
 * `index`: every query through the in-memory browse index (browse.index.ts, loaded at the first
 * call), else through the database's statements alone.
 */
export function describeBrowse(name: string, open: () => Promise<BrowseFixture>, options: { index?: boolean } = {}): void {
  const tracksQuery = (database: Database): SqlTracksQuery => new SqlTracksQuery(database, options.index ? new BrowseIndex(database, undefined, { wait: true }) : undefined);
  describe(`browsing stored analyses on ${name}${options.index ? ' through the in-memory index' : ''}`, () => {
    /**
     * A test the index does not change (text filters, migrations, the store's writes, refused
     * arguments): run once, without it.
     */
    const databaseOnly: jest.It = (options.index ? () => {} : it) as jest.It;
    /**
     * A test of thousands of rows: through the index on SQLite alone (the index's answers do not
     * depend on the store; its Postgres reads are tested in browse-index.test.ts and by the rest of
     * this suite). Each writes 12,000 rows or more: 5–24 s each on 2 cores shared with other
     * work (load average 5), within reach of Jest's 30 s; each has 120 s.
     */
    const heavy = (title: string, fn: () => Promise<void>): void => {
      if (!(options.index && name === 'Postgres')) it(title, fn, HEAVY_TIMEOUT_MS);
    };
    /** The database's plan of a page (the statements the service runs without the index, or before it is loaded). */
    const databasePlan = (request: TracksRequest): Promise<string[]> => new BrowseService(new SqlTracksQuery(fixture.database), new SqlAnalysisStore(fixture.database)).explain(request);
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

    /**
     * Every page of a request walked backward (last/before) from the end, each page in the
     * request's order; keys returned in that order too (pages concatenated back to front).
     */
    const allBackward = async (request: TracksRequest, last: number): Promise<{ keys: string[]; pages: string[][] }> => {
      const pages: string[][] = [];
      let before: string | null = null;
      for (let guard = 0; guard < 100; guard++) {
        const page = await browse.tracks({ ...request, first: undefined, last, before });
        const keys = page.edges.map((e) => e.node.trackKey);
        pages.unshift(keys);
        expect(page.pageInfo.hasNextPage).toBe(false);
        expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
        expect(page.pageInfo.endCursor).toBe(page.edges[page.edges.length - 1]?.cursor ?? null);
        if (!page.pageInfo.hasPreviousPage) return { keys: pages.flat(), pages };
        before = page.pageInfo.startCursor;
      }
      throw new Error('backward pagination did not end');
    };

    /** What a request should answer, computed in JS: filter, then (value, seq) order. */
    const expected = (keep: (a: StoredAnalysis) => boolean, field: ColumnOrderField, direction: 'ASC' | 'DESC'): string[] => {
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
      await migrateToLatest(fixture.database);
      store = new SqlAnalysisStore(fixture.database);
      query = tracksQuery(fixture.database);
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
      for (const field of Object.keys(TRACK_ORDER_FIELDS) as ColumnOrderField[]) {
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

    databaseOnly('matches artist and title text case-insensitively as a substring, % and _ and \\ as themselves', async () => {
      expect((await all({ filter: { artist: 'calm ONES' }, first: 100 })).keys.sort()).toEqual(
        seeded.filter((a) => a.artist === 'The Calm Ones').map((a) => a.trackKey).sort(),
      );
      expect((await all({ filter: { trackName: 'SONG 1' }, first: 100 })).keys).toHaveLength(11);
      expect((await all({ filter: { artist: '50%_off\\' }, first: 100 })).keys).toEqual([trackKey('50%_off\\band', 'Percent')]);
      expect((await all({ filter: { artist: '5%f' }, first: 100 })).keys).toEqual([]);
      expect((await all({ filter: { artist: '_' }, first: 100 })).keys).toEqual([trackKey('50%_off\\band', 'Percent')]);
    });

    databaseOnly('matches text ignoring case, accents and compatibility forms in every script, alike on both databases', async () => {
      await save(analysisOf('Beyoncé', 'Halo', {}, 401));
      await save(analysisOf('Sigur Rós', 'Hoppípolla', {}, 402));
      await save(analysisOf('坂本龍一', 'Merry Christmas Mr. Lawrence', {}, 403));
      await save(analysisOf('Straße  der   Lieder', 'ΣΊΣΥΦΟΣ', {}, 404));
      await save(analysisOf('Mø', 'Ｆｕｌｌ Ｗｉｄｔｈ ﬁre', {}, 405));
      await save(analysisOf('くるり', 'ばらの花', {}, 406));
      const artist = async (text: string): Promise<string[]> =>
        (await all({ filter: { artist: text }, first: 100 })).keys.map((k) => seeded.find((a) => a.trackKey === k)!.artist);
      const title = async (text: string): Promise<string[]> =>
        (await all({ filter: { trackName: text }, first: 100 })).keys.map((k) => seeded.find((a) => a.trackKey === k)!.trackName);
      for (const text of ['beyonce', 'BEYONCÉ', 'Beyonce\u0301', 'yonc', 'ＢＥＹＯＮＣＥ']) expect({ text, got: await artist(text) }).toEqual({ text, got: ['Beyoncé'] });
      expect(await artist('sigur ros')).toEqual(['Sigur Rós']);
      expect(await artist('SIGUR  RÓS')).toEqual(['Sigur Rós']);
      expect(await artist('坂本')).toEqual(['坂本龍一']);
      expect(await artist('龍一')).toEqual(['坂本龍一']);
      expect(await artist('strasse der lieder')).toEqual(['Straße  der   Lieder']);
      expect(await artist('mo')).toEqual(['Mø']);
      expect(await title('hoppipolla')).toEqual(['Hoppípolla']);
      expect(await title('σίσυφος')).toEqual(['ΣΊΣΥΦΟΣ']);
      expect(await title('φοσ')).toEqual(['ΣΊΣΥΦΟΣ']);
      expect(await title('full width fire')).toEqual(['Ｆｕｌｌ Ｗｉｄｔｈ ﬁre']);
      expect(await title('mr. lawrence')).toEqual(['Merry Christmas Mr. Lawrence']);
      // Japanese voicing marks belong to the letter: ばら is not はら.
      expect(await title('ばら')).toEqual(['ばらの花']);
      expect(await title('はら')).toEqual([]);
      expect(await artist('beyonce x')).toEqual([]);
      expect(await browse.count({ artist: 'BEYONCE' })).toBe(1);
      expect(await invalid({ filter: { artist: '\u0301\u0301' } })).toMatch(/artist has no letters to match/);
    });

    databaseOnly('migration 0003 folds the names of analyses stored before it, in batches', async () => {
      // A fresh schema at 0002, rows written as 0002 knew them, then migrated to the latest.
      await fixture.close();
      fixture = await open();
      const { db, dialect } = fixture.database;
      await migrateTo(fixture.database, '0002_browse_indexes');
      const names = ['Beyoncé', 'Sigur Rós', '坂本龍一', 'Plain'];
      const rows = [];
      for (let i = 0; i < 1203; i++) {
        const { artist_fold: _a, title_fold: _t, ...row } = rowBeforeAddedDescriptors(toRow(analysisOf(names[i % 4]!, `Tïtle ${i}`, {}, 7000 + i)));
        rows.push(dialect === 'sqlite' ? { ...row, seq: i + 1 } : row);
      }
      for (let i = 0; i < rows.length; i += 300) await db.insertInto('analyses').values(rows.slice(i, i + 300) as never).execute();
      await migrateToLatest(fixture.database);
      store = new SqlAnalysisStore(fixture.database);
      browse = new BrowseService(tracksQuery(fixture.database), store);
      expect(await browse.count({ artist: 'beyonce' })).toBe(301);
      expect(await browse.count({ artist: 'SIGUR ROS' })).toBe(301);
      expect(await browse.count({ artist: '坂本' })).toBe(301);
      expect(await browse.count({ trackName: 'title 120' })).toBe(4); // 120 and 1200–1202
      const empty = await db.selectFrom('analyses').select((eb) => eb.fn.countAll<string | number>().as('n')).where('artist_fold', '=', '').executeTakeFirst();
      expect(Number(empty?.n)).toBe(0);
      // Saved after the migration: folded on insert.
      await store.save(analysisOf('Ólafur Arnalds', 'Saman', {}, 9999));
      expect(await browse.count({ artist: 'olafur' })).toBe(1);
    });

    it('filters by the tagger’s tags: a probability range, among the n most probable, every condition; analyses without tags never match', async () => {
      // Half the seeded analyses carry tags (as the models make them); the others (signal) none.
      const tagged = new Map<string, TagScore[]>();
      for (let i = 0; i < 30; i++) {
        const tags = tagsOf(500 + i);
        const a = analysisOf('Tagged', `Tagged ${i}`, { tags }, 500 + i);
        await save(a);
        tagged.set(a.trackKey, tags);
      }
      const has = (a: StoredAnalysis, name: string, min = -Infinity, max = Infinity, top = 50): boolean => {
        const tags = tagged.get(a.trackKey) ?? [];
        const at = tags.findIndex((t) => t.name === name);
        return at >= 0 && at < top && tags[at]!.probability >= min && tags[at]!.probability <= max;
      };
      const cases: ReadonlyArray<{ filter: TrackFilter; keep: (a: StoredAnalysis) => boolean }> = [
        { filter: { tags: [{ name: 'rock', min: 0.2 }] }, keep: (a) => has(a, 'rock', 0.2) },
        { filter: { tags: [{ name: 'Jazz', min: 0.1, max: 0.4 }] }, keep: (a) => has(a, 'jazz', 0.1, 0.4) },
        { filter: { tags: [{ name: 'hip-hop', top: 10 }] }, keep: (a) => has(a, 'Hip-Hop', -Infinity, Infinity, 10) },
        { filter: { tags: [{ name: 'pop', min: 0.05 }, { name: 'electronic', top: 25 }] }, keep: (a) => has(a, 'pop', 0.05) && has(a, 'electronic', -Infinity, Infinity, 25) },
        { filter: { tags: [{ name: 'ambient' }] }, keep: (a) => has(a, 'ambient') },
        { filter: { tags: [{ name: 'metal', min: 0.1 }], mode: 1, tempo: { min: 90 } }, keep: (a) => has(a, 'metal', 0.1) && a.features.mode === 1 && a.features.tempo >= 90 },
      ];
      for (const { filter, keep } of cases) {
        for (const field of ['ANALYSED_AT', 'TEMPO'] as const) {
          const want = expected(keep, field, 'DESC');
          const got = await all({ filter, orderBy: { field, direction: 'DESC' }, first: 4 });
          expect({ filter, field, keys: got.keys }).toEqual({ filter, field, keys: want });
          expect((await allBackward({ filter, orderBy: { field, direction: 'DESC' } }, 4)).keys).toEqual(want);
          expect(await browse.count(browse.pageRequest({ filter }).filter)).toBe(want.length);
        }
      }
      // The cases are not vacuous: each matches some analyses and leaves out others.
      for (const { keep } of cases.slice(0, 4)) {
        const n = seeded.filter(keep).length;
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThan(30);
      }
      expect(seeded.filter((a) => has(a, 'ambient'))).toHaveLength(30);
    });

    it('orders by a tag’s probability (ties in storage order), forward and backward, with filters; only analyses with the tag', async () => {
      for (let i = 0; i < 30; i++) await save(analysisOf('Ordered', `Ordered ${i}`, { tags: tagsOf(600 + i) }, 600 + i));
      // Two more analyses whose rock ties with another's, to the thousandth.
      const rockOf = (a: StoredAnalysis): number | undefined => a.features.tags?.find((t) => t.name === 'rock')?.probability;
      const tiedWith = seeded.length - 5;
      const tie = rockOf(seeded[tiedWith]!)!;
      for (const n of [0, 1]) await save(analysisOf('Ordered', `Tie ${n}`, { tags: [{ name: 'rock', probability: tie }, { name: 'jazz', probability: tie / 2 }] }, 700 + n));
      const byTag = (name: string, direction: 'ASC' | 'DESC', keep: (a: StoredAnalysis) => boolean = () => true): string[] => {
        const sign = direction === 'ASC' ? 1 : -1;
        const milli = (a: StoredAnalysis): number | undefined => {
          const p = a.features.tags?.find((t) => t.name === name)?.probability;
          return p === undefined ? undefined : Math.round(p * 1000);
        };
        return seeded
          .map((a, i) => ({ a, seq: i + 1, v: milli(a) }))
          .filter(({ a, v }) => v !== undefined && keep(a))
          .sort((x, y) => sign * (x.v! - y.v! || x.seq - y.seq))
          .map(({ a }) => a.trackKey);
      };
      const cases: ReadonlyArray<{ tag: string; filter?: TrackFilter; keep?: (a: StoredAnalysis) => boolean }> = [
        { tag: 'rock' },
        { tag: 'Female Vocalists' },
        { tag: 'jazz', filter: { mode: 1, tempo: { min: 80 } }, keep: (a) => a.features.mode === 1 && a.features.tempo >= 80 },
        { tag: 'rock', filter: { tags: [{ name: 'pop', top: 20 }] }, keep: (a) => (a.features.tags ?? []).slice(0, 20).some((t) => t.name === 'pop') },
      ];
      for (const { tag, filter, keep } of cases) {
        for (const direction of ['ASC', 'DESC'] as const) {
          const want = byTag(taggerTagName(tag), direction, keep);
          const orderBy = { field: 'TAG' as const, direction, tag };
          expect({ tag, direction, keys: (await all({ filter: filter ?? null, orderBy, first: 4 })).keys }).toEqual({ tag, direction, keys: want });
          expect((await allBackward({ filter: filter ?? null, orderBy }, 4)).keys).toEqual(want);
        }
      }
      // Only the analyses the models made (with tags); ties in storage order, the order's way.
      const rock = byTag('rock', 'DESC');
      expect(rock).toHaveLength(32);
      expect(seeded.length).toBeGreaterThan(32);
      const tied = [seeded.length - 1, seeded.length - 2, tiedWith].map((i) => rock.indexOf(seeded[i]!.trackKey));
      expect(tied[1]).toBe(tied[0]! + 1);
      expect(tied[2]).toBeGreaterThan(tied[1]!);
      // A cursor belongs to its tag.
      const page = await browse.tracks({ orderBy: { field: 'TAG', tag: 'rock' }, first: 2 });
      expect(await invalid({ orderBy: { field: 'TAG', tag: 'jazz' }, after: page.pageInfo.endCursor })).toMatch(/this cursor belongs to orderBy TAG \(rock\) DESC, not TAG \(jazz\) DESC/);
      expect(await invalid({ orderBy: { field: 'TEMPO' }, after: page.pageInfo.endCursor })).toMatch(/belongs to orderBy TAG \(rock\) DESC, not TEMPO DESC/);
      expect(await invalid({ orderBy: { field: 'TAG' } })).toMatch(/orderBy\.field TAG needs orderBy\.tag/);
      expect(await invalid({ orderBy: { field: 'TAG', tag: 'polka' } })).toMatch(/orderBy\.tag: the tagger gives no tag "polka"/);
      expect(await invalid({ orderBy: { field: 'TEMPO', tag: 'rock' } })).toMatch(/orderBy\.tag is only for orderBy\.field TAG/);
    });

    it('the rows recommendations rank carry the highest probability among a condition’s tags (any of them)', async () => {
      const tagged = [];
      for (let i = 0; i < 30; i++) {
        const a = analysisOf('Genre', `Genre ${i}`, { tags: tagsOf(800 + i) }, 800 + i);
        await save(a);
        tagged.push(a);
      }
      const names = ['jazz', 'Hip-Hop'];
      const rows = await query.featureRows({ tags: [{ names, top: 3 }] }, 100);
      const want = tagged.filter((a) => a.features.tags!.slice(0, 3).some((t) => names.includes(t.name)));
      expect(want.length).toBeGreaterThan(1);
      expect(rows.map((r) => r.trackKey).sort()).toEqual(want.map((a) => a.trackKey).sort());
      for (const r of rows) {
        const a = want.find((x) => x.trackKey === r.trackKey)!;
        expect(r.tagProbability).toBeCloseTo(Math.max(...a.features.tags!.filter((t) => names.includes(t.name)).map((t) => t.probability)), 6);
      }
    });

    databaseOnly('stores tag rows with the analysis: a second save leaves them, replace swaps them, an analysis without tags has none', async () => {
      const key = trackKey('Swap', 'Tags');
      const count = async (filter: TrackFilter): Promise<number> => browse.count(browse.pageRequest({ filter }).filter);
      const jazzFirst: TagScore[] = [{ name: 'jazz', probability: 0.9 }, { name: 'rock', probability: 0.1 }];
      await save(analysisOf('Swap', 'Tags', { tags: jazzFirst }, 77));
      expect(await store.save(analysisOf('Swap', 'Tags', { tags: [{ name: 'rock', probability: 0.95 }] }, 77))).toBe(false);
      expect(await count({ artist: 'swap', tags: [{ name: 'jazz', top: 1 }] })).toBe(1);
      expect(await count({ artist: 'swap', tags: [{ name: 'rock', min: 0.5 }] })).toBe(0);
      expect(await store.replace(analysisOf('Swap', 'Tags', { tags: [{ name: 'rock', probability: 0.95 }, { name: 'jazz', probability: 0.05 }] }, 77))).toBe(true);
      expect(await count({ artist: 'swap', tags: [{ name: 'jazz', top: 1 }] })).toBe(0);
      expect(await count({ artist: 'swap', tags: [{ name: 'rock', top: 1, min: 0.9 }] })).toBe(1);
      expect((await store.get(key))!.features.tags).toEqual([{ name: 'rock', probability: 0.95 }, { name: 'jazz', probability: 0.05 }]);
      // Re-analysed by a method that makes no tags: the tag rows go with the old analysis.
      expect(await store.replace(analysisOf('Swap', 'Tags', {}, 77))).toBe(true);
      expect(await count({ artist: 'swap', tags: [{ name: 'rock' }] })).toBe(0);
      const { db } = fixture.database;
      const tagRowCount = async (): Promise<number> => Number((await db.selectFrom('analysis_tags').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst())?.n);
      const seq = (await db.selectFrom('analyses').select('seq').where('track_key', '=', key).executeTakeFirst())!.seq;
      expect(await db.selectFrom('analysis_tags').select('tag').where('seq', '=', seq).execute()).toEqual([]);
      // No analysis, nothing written.
      const before = await tagRowCount();
      expect(await store.replace(analysisOf('Never', 'Stored', { tags: jazzFirst }, 78))).toBe(false);
      expect(await tagRowCount()).toBe(before);
    });

    databaseOnly('refuses bad tag conditions with INVALID_ARGUMENT', async () => {
      expect(await invalid({ filter: { tags: [{ name: 'polka' }] } })).toMatch(/filter\.tags\[0\]\.name: the tagger gives no tag "polka"/);
      expect(await invalid({ filter: { tags: [{ name: 'rock' }, { name: 'pop', top: 0 }] } })).toMatch(/filter\.tags\[1\]\.top must be a whole number from 1 to 50/);
      expect(await invalid({ filter: { tags: [{ name: 'rock', top: 51 }] } })).toMatch(/top must be a whole number from 1 to 50/);
      expect(await invalid({ filter: { tags: [{ name: 'rock', top: 2.5 }] } })).toMatch(/top must be a whole number/);
      expect(await invalid({ filter: { tags: [{ name: 'rock', min: 0.6, max: 0.2 }] } })).toMatch(/filter\.tags\[0\]: min \(0\.6\) is above max \(0\.2\)/);
      expect(await invalid({ filter: { tags: [{ name: 'rock', min: Number.NaN }] } })).toMatch(/filter\.tags\[0\]\.min must be a finite number/);
      expect(await invalid({ filter: { tags: [] } })).toMatch(/filter\.tags must list 1 to 5 tag conditions/);
      expect(await invalid({ filter: { tags: Array.from({ length: 6 }, () => ({ name: 'rock' })) } })).toMatch(/1 to 5 tag conditions/);
    });

    databaseOnly('migration 0008 gives the analyses stored before it their tag rows, from their timeline column, in batches', async () => {
      await fixture.close();
      fixture = await open();
      const { db, dialect } = fixture.database;
      await migrateTo(fixture.database, '0007_upload_usage');
      const rows = [];
      for (let i = 0; i < 450; i++) {
        // Every third analysis made without the models (no tags); one with a malformed list.
        const a = analysisOf('Before', `Tagged ${i}`, i % 3 === 0 ? {} : { tags: tagsOf(900 + i) }, 900 + i);
        const row = rowBeforeAddedDescriptors(toRow(a));
        if (i === 4) row.timeline = JSON.stringify({ ...JSON.parse(row.timeline), tags: [{ name: 'rock' }, 'x', { name: 'jazz', probability: 2 }, { name: 'pop', probability: 0.5 }] });
        rows.push({ row: dialect === 'sqlite' ? { ...row, seq: i + 1 } : row, tags: i === 4 ? [{ name: 'pop', probability: 0.5 }] : (a.features.tags ?? []) });
      }
      for (let i = 0; i < rows.length; i += 150) await db.insertInto('analyses').values(rows.slice(i, i + 150).map((r) => r.row)).execute();
      await migrateToLatest(fixture.database);
      browse = new BrowseService(tracksQuery(fixture.database), new SqlAnalysisStore(fixture.database));
      const stored = await db.selectFrom('analysis_tags').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst();
      expect(Number(stored?.n)).toBe(rows.reduce((n, r) => n + r.tags.length, 0));
      for (const name of ['rock', 'jazz', 'pop'] as const) {
        const want = rows.filter((r) => r.tags.slice(0, 3).some((t) => t.name === name)).length;
        expect({ name, n: await browse.count(browse.pageRequest({ filter: { tags: [{ name, top: 3 }] } }).filter) }).toEqual({ name, n: want });
      }
      expect(await browse.count(browse.pageRequest({ filter: { tags: [{ name: 'pop', min: 0.5, max: 0.5 }], trackName: 'tagged 4' } }).filter)).toBeGreaterThanOrEqual(1);
    });

    heavy('a tag filter reads the tags’ indexes, not every analysis', async () => {
      const sqlite = fixture.database.dialect === 'sqlite';
      const rows = [];
      const tags = [];
      // 12,000 analyses (as many as the planners need to prefer indexes to reading the table);
      // of their tags, only the three asked for here are written as rows.
      for (let i = 0; i < 12000; i++) {
        // rock and jazz take turns: each over 0.3 in half the analyses, never both.
        const turns = tagsOf(3000 + i)
          .map((t) => (t.name === 'rock' ? { ...t, probability: i % 2 ? 0.61 : 0.01 } : t.name === 'jazz' ? { ...t, probability: i % 2 ? 0.02 : 0.62 } : t))
          .sort((x, y) => y.probability - x.probability || (x.name < y.name ? -1 : 1));
        const a = analysisOf(`Lib ${i % 50}`, `Lib ${i}`, { tags: turns }, 3000 + i);
        seeded.push(a);
        rows.push(sqlite ? { ...toRow(a), seq: 10_000 + i } : toRow(a));
      }
      const asked = new Set(['rock', 'jazz', 'punk'].map((n) => tagId(n)));
      const tagsOfKey = new Map(seeded.map((a) => [a.trackKey, a.features.tags]));
      for (let i = 0; i < rows.length; i += 500) {
        const stored = await fixture.database.db.insertInto('analyses').values(rows.slice(i, i + 500)).returning(['seq', 'track_key']).execute();
        for (const r of stored) tags.push(...tagRows(Number(r.seq), tagsOfKey.get(r.track_key)).filter((t) => asked.has(t.tag)));
      }
      for (let i = 0; i < tags.length; i += 1000) await fixture.database.db.insertInto('analysis_tags').values(tags.slice(i, i + 1000)).execute();
      await refreshStatistics(fixture.database);
      const request: TracksRequest = { filter: { tags: [{ name: 'punk', top: 1 }] }, orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 10 };
      const want = expected((a) => a.features.tags?.[0]?.name === 'punk', 'TEMPO', 'ASC');
      expect(want.length).toBeGreaterThan(10);
      expect(want.length).toBeLessThan(1000);
      expect((await all(request)).keys).toEqual(want);
      const plan = (await databasePlan(request)).join('\n');
      // "Among the n most probable": a range of (tag, rank).
      expect(plan).toMatch(sqlite ? /USING COVERING INDEX analysis_tags_by_rank \(tag=\? AND rank<\?\)/ : /analysis_tags_by_rank/);
      // Two loose tags never found together: the order index walked 2,000 rows at most, then the
      // exact (empty) answer from the tags' indexes.
      const apart: TracksRequest = { filter: { tags: [{ name: 'rock', min: 0.3 }, { name: 'jazz', min: 0.3 }] }, orderBy: { field: 'ENERGY', direction: 'DESC' }, first: 10 };
      expect((await all(apart)).keys).toEqual([]);
      const rock = expected((a) => (a.features.tags ?? []).some((t) => t.name === 'rock' && t.probability >= 0.3), 'ENERGY', 'DESC');
      expect(rock.length).toBeGreaterThan(5000);
      expect((await all({ ...apart, filter: { tags: [{ name: 'rock', min: 0.3 }] }, first: 100 })).keys).toEqual(rock);
      const apartPlan = (await databasePlan(apart)).join('\n');
      expect(apartPlan).toMatch(sqlite ? /SCAN analyses USING COVERING INDEX analyses_by_energy\nthen:[^]*then:[^]*analysis_tags_by_tag \(tag=\? AND milli>\?\)[^]*then:[^]*analysis_tags_by_tag \(tag=\? AND milli>\?\)/ : /Limit[\s\S]*Index Scan Backward using analyses_by_energy[\s\S]*then:[\s\S]*analysis_tags_by_tag/);
      expect(pageStatements(`${plan}\nthen:\n${apartPlan}`)).not.toMatch(/^(SCAN analyses$|.*Seq Scan on analyses)/m);
      // Ordered by a tag: its index walked in order, no sort.
      const byRock: TracksRequest = { orderBy: { field: 'TAG', tag: 'rock', direction: 'DESC' }, first: 10 };
      const byRockPlan = (await databasePlan(byRock)).join('\n');
      expect(byRockPlan).toMatch(sqlite ? /^SEARCH w USING COVERING INDEX analysis_tags_by_tag \(tag=\?\)\nSEARCH analyses USING INDEX analyses_seq/ : /Index Only Scan Backward using analysis_tags_by_tag/);
      expect(byRockPlan).not.toMatch(/TEMP B-TREE|Sort/);
      const rockOrder = seeded
        .map((a, i) => ({ a, seq: i, p: a.features.tags?.find((t) => t.name === 'rock')?.probability }))
        .filter((x) => x.p !== undefined)
        .sort((x, y) => Math.round(y.p! * 1000) - Math.round(x.p! * 1000) || y.seq - x.seq)
        .map((x) => x.a.trackKey);
      expect((await browse.tracks(byRock)).edges.map((e) => e.node.trackKey)).toEqual(rockOrder.slice(0, 10));
      // Filters never true together: the tag's index walked 2,000 rows at most, then the filters' matches.
      const apartByPunk: TracksRequest = { ...apart, orderBy: { field: 'TAG', tag: 'punk', direction: 'DESC' } };
      expect((await all(apartByPunk)).keys).toEqual([]);
      const apartByPunkPlan = (await databasePlan(apartByPunk)).join('\n');
      expect(apartByPunkPlan).toMatch(sqlite ? /^CO-ROUTINE w\nSEARCH analysis_tags USING COVERING INDEX analysis_tags_by_tag/ : /Limit[\s\S]*Index Only Scan Backward using analysis_tags_by_tag[\s\S]*then:/);
      expect(apartByPunkPlan).not.toMatch(/^(SCAN analyses$|.*Seq Scan on analyses)/m);
      // Filters rare among the tag's first 2,000 rows, none narrow alone: the matches read from
      // the filters' index (SQLite: their seqs from analyses_features, index-only, then each one's
      // row of the tag by the primary key), then sorted.
      const rare = { key: [0], mode: 1, timeSignature: [3], tempo: { min: 60, max: 90 } };
      const rareByPunk: TracksRequest = { filter: rare, orderBy: { field: 'TAG', tag: 'punk', direction: 'DESC' }, first: 10 };
      const keep = (a: StoredAnalysis): boolean => a.features.key === 0 && a.features.mode === 1 && a.features.timeSignature === 3 && a.features.tempo >= 60 && a.features.tempo <= 90;
      const punkOrder = seeded
        .map((a, i) => ({ a, seq: i, p: a.features.tags?.find((t) => t.name === 'punk')?.probability }))
        .filter((x) => x.p !== undefined && keep(x.a))
        .sort((x, y) => Math.round(y.p! * 1000) - Math.round(x.p! * 1000) || y.seq - x.seq)
        .map((x) => x.a.trackKey);
      expect(punkOrder.length).toBeGreaterThan(10);
      expect((await all(rareByPunk)).keys).toEqual(punkOrder);
      const rarePlan = (await databasePlan(rareByPunk)).join('\n');
      expect(rarePlan).toMatch(sqlite ? /then:\nSEARCH analyses USING COVERING INDEX analyses_features[^\n]*\nthen:\nSEARCH w USING PRIMARY KEY/ : /then:[\s\S]*Bitmap Index Scan/);
      expect(rarePlan).not.toMatch(/Seq Scan on analyses/);
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

    databaseOnly('refuses bad arguments with INVALID_ARGUMENT', async () => {
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

    it('pages backward with last/before: the last page, and every page back equal to the forward pages', async () => {
      for (const field of Object.keys(TRACK_ORDER_FIELDS) as ColumnOrderField[]) {
        for (const direction of ['ASC', 'DESC'] as const) {
          const want = expected(() => true, field, direction);
          const lastPage = await browse.tracks({ orderBy: { field, direction }, last: 5 });
          expect({ field, direction, keys: lastPage.edges.map((e) => e.node.trackKey) }).toEqual({ field, direction, keys: want.slice(-5) });
          expect(lastPage.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false, startCursor: lastPage.edges[0]!.cursor });
          // Walking back from the last forward page's start cursor gives the forward pages, reversed.
          const forward: { keys: string[]; start: string | null }[] = [];
          let after: string | null = null;
          for (;;) {
            const page = await browse.tracks({ orderBy: { field, direction }, first: 5, after });
            forward.push({ keys: page.edges.map((e) => e.node.trackKey), start: page.pageInfo.startCursor });
            if (!page.pageInfo.hasNextPage) break;
            after = page.pageInfo.endCursor;
          }
          const back: string[][] = [];
          let before = forward[forward.length - 1]!.start;
          for (;;) {
            const page = await browse.tracks({ orderBy: { field, direction }, last: 5, before });
            back.push(page.edges.map((e) => e.node.trackKey));
            // The cursors of a backward page are those of the same rows paged forward.
            if (back.length === 1) expect(page.pageInfo.startCursor).toBe(forward[forward.length - 2]!.start);
            if (!page.pageInfo.hasPreviousPage) break;
            before = page.pageInfo.startCursor;
          }
          expect({ field, direction, back }).toEqual({ field, direction, back: forward.slice(0, -1).map((p) => p.keys).reverse() });
          expect((await allBackward({ orderBy: { field, direction } }, 5)).keys).toEqual(want);
        }
      }
    });

    it('pages backward through filters, and answers an empty page before the first row or with no match', async () => {
      const request = { filter: { mode: 1, tempo: { min: 80 } }, orderBy: { field: 'ENERGY', direction: 'ASC' } } as const;
      const want = expected((a) => a.features.mode === 1 && a.features.tempo >= 80, 'ENERGY', 'ASC');
      expect(want.length).toBeGreaterThan(4);
      const back = await allBackward(request, 2);
      expect(back.keys).toEqual(want);
      expect(back.pages.slice(1).every((p) => p.length === 2)).toBe(true);
      const none = await browse.tracks({ filter: { tempo: { min: 500 } }, last: 5 });
      expect(none.edges).toEqual([]);
      expect(none.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
      const first = await browse.tracks({ ...request, first: 1 });
      const beforeFirst = await browse.tracks({ ...request, last: 3, before: first.pageInfo.startCursor });
      expect(beforeFirst.edges).toEqual([]);
      expect(beforeFirst.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
      // Exactly the whole answer: no previous page.
      const whole = await browse.tracks({ ...request, last: want.length });
      expect(whole.edges.map((e) => e.node.trackKey)).toEqual(want);
      expect(whole.pageInfo.hasPreviousPage).toBe(false);
      // Default page size when only before is given.
      const defaults = await browse.tracks({ orderBy: { field: 'TEMPO', direction: 'ASC' }, before: (await browse.tracks({ orderBy: { field: 'TEMPO', direction: 'ASC' }, last: 1 })).pageInfo.startCursor });
      expect(defaults.edges.map((e) => e.node.trackKey)).toEqual(expected(() => true, 'TEMPO', 'ASC').slice(-21, -1));
    });

    it('when analyses arrive between backward pages, then the next page back continues before the cursor: nothing repeated or skipped', async () => {
      const request = { filter: { energy: { min: 0.1 } }, orderBy: { field: 'ENERGY', direction: 'DESC' } } as const;
      const page1 = await browse.tracks({ ...request, last: 6 });
      const cursorEnergy = page1.edges[0]!.node.features.energy;
      // Already passed going back (after the cursor in this order): must not appear. Not yet
      // reached (before it): must. Tied with it: newer seq sorts first in DESC, so before it: must.
      await save(analysisOf('New', 'Quiet', { energy: cursorEnergy - 0.0001 }, 211));
      await save(analysisOf('New', 'Loud', { energy: Math.min(1, cursorEnergy + 0.05) }, 212));
      await save(analysisOf('New', 'Tied', { energy: cursorEnergy }, 213));
      const rest: string[][] = [];
      let before = page1.pageInfo.startCursor;
      for (;;) {
        const page = await browse.tracks({ ...request, last: 6, before });
        rest.unshift(page.edges.map((e) => e.node.trackKey));
        if (!page.pageInfo.hasPreviousPage) break;
        before = page.pageInfo.startCursor;
      }
      const seen = [...rest.flat(), ...page1.edges.map((e) => e.node.trackKey)];
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).not.toContain(trackKey('New', 'Quiet'));
      expect(seen).toContain(trackKey('New', 'Loud'));
      expect(seen).toContain(trackKey('New', 'Tied'));
      expect(seen).toEqual(expected((a) => a.features.energy >= 0.1, 'ENERGY', 'DESC').filter((k) => k !== trackKey('New', 'Quiet')));
    });

    databaseOnly('refuses first with last, after with before, and mixed directions, with INVALID_ARGUMENT', async () => {
      const page = await browse.tracks({ orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 2 });
      const cursor = page.pageInfo.endCursor;
      expect(await invalid({ first: 2, last: 2 })).toMatch(/first and last cannot be used together/);
      expect(await invalid({ orderBy: { field: 'TEMPO', direction: 'ASC' }, after: cursor, before: cursor })).toMatch(/after and before cannot be used together/);
      expect(await invalid({ orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 2, before: cursor })).toMatch(/before pages backward: use it with last/);
      expect(await invalid({ orderBy: { field: 'TEMPO', direction: 'ASC' }, last: 2, after: cursor })).toMatch(/after pages forward: use it with first/);
      expect(await invalid({ last: 0 })).toMatch(/last must be a whole number from 1 to 100/);
      expect(await invalid({ last: 101 })).toMatch(/last/);
      expect(await invalid({ last: 2, before: 'not-a-cursor' })).toMatch(/before is not a cursor/);
      expect(await invalid({ orderBy: { field: 'TEMPO', direction: 'DESC' }, last: 2, before: cursor })).toMatch(/before: this cursor belongs to orderBy TEMPO ASC/);
    });

    it('similar: half and double time count as near (tempo folded at octaves, with a small penalty)', async () => {
      const base = { tempo: 70, key: 2, mode: 1, energy: 0.5, liveness: 0.1, danceability: 0.6, instrumentalness: 0.2, speechiness: 0.05, acousticness: 0.3,
        valence: 0.6, arousal: 0.5, approachability: 0.7, engagement: 0.5, mood: { happy: 0.6, sad: 0.2, relaxed: 0.3, aggressive: 0.1 } };
      await save(analysisOf('Octave', 'Seed 70', base, 501));
      await save(analysisOf('Octave', 'Double 140', { ...base, tempo: 140 }, 502));
      await save(analysisOf('Octave', 'Between 100', { ...base, tempo: 100 }, 503));
      await save(analysisOf('Octave', 'Half 35.7', { ...base, tempo: 35.7 }, 504));
      await save(analysisOf('Octave', 'Quadruple 280', { ...base, tempo: 280 }, 505));
      // The key-neighbourhood bands (first few: enough candidates without the fallback).
      const near = await browse.similar(trackKey('Octave', 'Seed 70'), 2);
      expect(near.map((s) => s.analysis.trackName)).toEqual(['Double 140', 'Half 35.7']);
      expect(near[0]!.distance).toBeCloseTo(OCTAVE_PENALTY, 6);
      expect(near[1]!.distance).toBeCloseTo(OCTAVE_PENALTY + 2 * Math.abs(Math.log2(35.7 / 35)), 6);
      const got = await browse.similar(trackKey('Octave', 'Seed 70'), 50);
      const names = got.map((s) => s.analysis.trackName);
      expect(names.indexOf('Double 140')).toBe(0);
      expect(names.indexOf('Between 100')).toBeGreaterThan(names.indexOf('Half 35.7'));
      expect(got.find((s) => s.analysis.trackName === 'Between 100')!.distance).toBeCloseTo(2 * Math.log2(100 / 70), 6);
      // Only 1, 2 and 1/2 fold: four times the tempo is an octave plus the penalty away.
      const { mood, ...rest } = base;
      const seed = { ...rest, mood_happy: mood.happy, mood_sad: mood.sad, mood_relaxed: mood.relaxed, mood_aggressive: mood.aggressive };
      expect(featureDistance(seed, { ...seed, tempo: 280 })).toBeCloseTo(2 + OCTAVE_PENALTY, 6);
      expect(featureDistance(seed, { ...seed, tempo: 140 })).toBeCloseTo(OCTAVE_PENALTY, 6);
      expect(featureDistance({ ...seed, tempo: 140 }, seed)).toBeCloseTo(OCTAVE_PENALTY, 6);
      expect(featureDistance(seed, { ...seed, tempo: 73.5 })).toBeCloseTo(2 * Math.log2(1.05), 6);
    });

    it('similar: nearest first by the documented distance, never the track itself, relative keys close', async () => {
      const base = { tempo: 120, key: 0, mode: 1, energy: 0.5, liveness: 0.1, danceability: 0.6, instrumentalness: 0.2, speechiness: 0.05, acousticness: 0.3,
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
      // What a bulk load is followed by: statistics now, not at the next check or autovacuum.
      await refreshStatistics(fixture.database);
      const ordered = (await databasePlan({ filter: { tempo: { min: 70 } }, orderBy: { field: 'MOOD_HAPPY', direction: 'DESC' } })).join('\n');
      const selective = (await databasePlan({ filter: { tempo: { min: 100, max: 100.5 } }, orderBy: { field: 'ENERGY', direction: 'DESC' } })).join('\n');
      if (fixture.database.dialect === 'sqlite') {
        expect(ordered).toMatch(/USING INDEX analyses_by_mood_happy/);
        expect(ordered).not.toMatch(/TEMP B-TREE/);
        // The tempo range through an index: its own, or analyses_features (key and mode skipped).
        expect(selective).toMatch(/SEARCH analyses USING (COVERING )?INDEX analyses_(by_tempo|features) \((ANY\(key\) AND ANY\(mode\) AND )?tempo>\? AND tempo<\?\)/);
      } else {
        expect(ordered).toMatch(/Index Scan (Backward )?using analyses_by_mood_happy/);
        expect(selective).toMatch(/analyses_by_tempo/);
      }
      expect(pageStatements(`${ordered}\nthen:\n${selective}`)).not.toMatch(/^(SCAN analyses$|.*Seq Scan)/m);
      // A loose range (over 2,000 rows) and a key: each page first bounded to the next 2,000 rows
      // of the order index (its position read from that index alone; on SQLite after finding the
      // range over 2,000 rows), within which the planner may read the key's rows instead. The
      // same answer as computed here.
      const got = await all({ filter: { energy: { min: 0.05 }, key: [3] }, orderBy: { field: 'TEMPO', direction: 'DESC' }, first: 40 });
      expect(got.keys).toEqual(expected((a) => a.features.energy >= 0.05 && a.features.key === 3, 'TEMPO', 'DESC'));
      if (fixture.database.dialect === 'sqlite') {
        expect((await databasePlan({ filter: { energy: { min: 0.05 }, key: [3] }, orderBy: { field: 'TEMPO', direction: 'DESC' }, first: 40 })).join('\n')).toMatch(
          /then:\nSCAN analyses USING COVERING INDEX analyses_by_tempo\nthen:\nSEARCH analyses USING INDEX analyses_(by_tempo|features) \((\(tempo,seq\)<\(\?,\?\)|key=\?)\)/,
        );
      }
      expect(got.pages.length).toBeGreaterThan(2);
    });

    heavy('loose range filters rare together, or rare where the order starts: the exact answer from the filters’ indexes, no full scan', async () => {
      // energy = x, danceability = x + 0.5 (mod 1), tempo rises with x, relaxed falls with it:
      // energy ≥ 0.6 and danceability ≥ 0.6 are each 40% of the rows and never true together,
      // except for 14 rows made so, at the far end of the tempo order; tempo ≥ 114 holds where
      // relaxed is lowest.
      const rows = [];
      for (let i = 0; i < 12000; i++) {
        const x = ((i * 37) % 1000) / 1000;
        const special = i % 857 === 5;
        // (12,000 rows: each loose range then holds more rows than a page reads one by one.)
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
      await refreshStatistics(fixture.database);

      const rare: TracksRequest = { filter: { energy: { min: 0.6 }, danceability: { min: 0.6 } }, orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 3 };
      const rareWant = expected((a) => a.features.energy >= 0.6 && a.features.danceability >= 0.6, 'TEMPO', 'ASC');
      expect(rareWant.length).toBeGreaterThanOrEqual(14);
      expect((await all(rare)).keys).toEqual(rareWant);
      const rarePlan = (await databasePlan(rare)).join('\n');

      const tail: TracksRequest = { filter: { tempo: { min: 114 }, mode: 0 }, orderBy: { field: 'MOOD_RELAXED', direction: 'DESC' }, first: 100 };
      const tailWant = expected((a) => a.features.tempo >= 114 && a.features.mode === 0, 'MOOD_RELAXED', 'DESC');
      expect(tailWant.length).toBeGreaterThan(1000);
      const got = await all(tail);
      expect(got.keys).toEqual(tailWant);
      expect(got.pages.length).toBeGreaterThan(10);
      const tailPlan = (await databasePlan(tail)).join('\n');
      // Backward over the same paths: the same answers.
      expect((await allBackward(rare, 3)).keys).toEqual(rareWant);
      expect((await allBackward(tail, 100)).keys).toEqual(tailWant);
      // A loose range (more candidates than are worth reading one by one) and a title matching one
      // row at the far end of the order: on SQLite the matches are found by reading
      // analyses_features whole, the title then checked on the rows it leaves.
      const wide: TracksRequest = { filter: { energy: { min: 0.01 }, trackName: 'Corr 5999' }, orderBy: { field: 'TEMPO', direction: 'ASC' }, first: 5 };
      const wideWant = expected((a) => a.features.energy >= 0.01 && /corr 5999/i.test(a.trackName), 'TEMPO', 'ASC');
      expect(wideWant).toHaveLength(1);
      expect((await all(wide)).keys).toEqual(wideWant);
      if (sqlite) expect((await databasePlan(wide)).join('\n')).toMatch(/then:\nSCAN analyses USING INDEX analyses_features\nUSE TEMP B-TREE FOR ORDER BY\nthen:\nSEARCH analyses USING INTEGER PRIMARY KEY/);

      if (sqlite) {
        // Both ranges over 2,000 rows (read that far from their indexes); the walk bounded to 2,000
        // rows of the order index; then each range's rowids read from its index alone and
        // intersected, the few candidates read by rowid and sorted, then the page's rows.
        expect(rarePlan).toMatch(
          /SEARCH analyses USING COVERING INDEX analyses_by_danceability \(danceability>\?\)\nSCAN \(subquery-1\)\nthen:\nSCAN analyses USING COVERING INDEX analyses_by_tempo\nthen:\nSEARCH analyses USING INDEX analyses_by_tempo \(\(tempo,seq\)<\(\?,\?\)\)\nthen:\nSEARCH analyses USING COVERING INDEX analyses_by_energy \(energy>\?\)\nthen:\nSEARCH analyses USING COVERING INDEX analyses_by_danceability \(danceability>\?\)\nthen:\nSEARCH analyses USING INTEGER PRIMARY KEY \(rowid=\?\)\n[\s\S]*USE TEMP B-TREE FOR ORDER BY\nthen:\nSEARCH analyses USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
        );
        // Over 2,000 candidates: analyses_features read by its mode and tempo, a skip-scan over key.
        expect(tailPlan).toMatch(/then:\nSEARCH analyses USING COVERING INDEX analyses_features \(ANY\(key\) AND mode=\? AND tempo>\?\)\nUSE TEMP B-TREE FOR ORDER BY\nthen:\nSEARCH analyses USING INTEGER PRIMARY KEY/);
      } else {
        // The bounded walk of the order index, then bitmap reads of the filters' indexes.
        expect(rarePlan).toMatch(/Index Scan using analyses_by_tempo[\s\S]*then:[\s\S]*BitmapAnd[\s\S]*Bitmap Index Scan on analyses_by_(energy|danceability)/);
        // (mode and tempo are both in (key, mode, tempo): the planner may read that index instead.)
        expect(tailPlan).toMatch(/Index Scan Backward using analyses_by_mood_relaxed[\s\S]*then:[\s\S]*Bitmap Index Scan on analyses_by_(tempo|key_mode_tempo)/);
      }
      expect(pageStatements(`${rarePlan}\nthen:\n${tailPlan}`)).not.toMatch(/^(SCAN analyses$|.*Seq Scan)/m);

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

    heavy('a tag held by more analyses than a walk reads, none of them where the order starts: the exact answer, the order index walked against the tag’s analyses', async () => {
      // energy = k/1000 (each value five times), rock's probability 1 − energy: rock ≥ 0.5 holds
      // for the ~2,500 analyses of energy ≤ 0.5, the far half of the order by energy, descending.
      const rows = [];
      for (let i = 0; i < 5000; i++) {
        const k = (i * 37) % 1000;
        const a = analysisOf(`Walk ${i % 40}`, `Walk ${i}`, { energy: k / 1000, tempo: 60 + k / 10, tags: [{ name: 'rock', probability: (1000 - k) / 1000 }] }, 7000 + i);
        seeded.push(a);
        rows.push(toRow(a));
      }
      const sqlite = fixture.database.dialect === 'sqlite';
      for (let i = 0; i < rows.length; i += 500) {
        await fixture.database.db.insertInto('analyses').values(rows.slice(i, i + 500).map((r, j) => (sqlite ? { ...r, seq: 30_000 + i + j } : r))).execute();
      }
      // Their tag rows (tagRows: the tag's id, its probability in thousandths, rank 1).
      await sql`insert into analysis_tags (seq, tag, milli, rank)
        select seq, ${tagId('rock')}, 1000 - cast(round(energy * 1000) as integer), 1 from analyses where artist like 'Walk %'`.execute(fixture.database.db);
      await refreshStatistics(fixture.database);
      const rock = (a: StoredAnalysis): number => a.features.tags?.find((t) => t.name === 'rock')?.probability ?? -1;

      for (const min of [0.5, 0.6]) {
        const request: TracksRequest = { filter: { tags: [{ name: 'rock', min }] }, orderBy: { field: 'ENERGY', direction: 'DESC' }, first: 100 };
        const want = expected((a) => rock(a) >= min, 'ENERGY', 'DESC');
        expect(want.length).toBeGreaterThan(min === 0.5 ? 2000 : 1500);
        const first = await browse.tracks({ ...request, first: 7 });
        expect(first.edges.map((e) => e.node.trackKey)).toEqual(want.slice(0, 7));
        expect((await all(request)).keys).toEqual(want);
        expect((await allBackward(request, 100)).keys).toEqual(want);
        // From a cursor before the matches: the walk starts there.
        const late = await browse.tracks({ ...request, first: 3, after: first.edges[2]!.cursor });
        expect(late.edges.map((e) => e.node.trackKey)).toEqual(want.slice(3, 6));
      }
      // Ordered by the tag, a filter held by 3,000 analyses (tempo = 60 + energy × 100), none of them
      // among the tag's 2,000 most probable: the filter's seqs from analyses_features alone, the
      // tag's rows walked against them.
      const byRock = (keep: (a: StoredAnalysis) => boolean): string[] =>
        seeded
          .map((a, i) => ({ a, seq: i + 1 }))
          .filter(({ a }) => rock(a) >= 0 && keep(a))
          .sort((x, y) => rock(y.a) - rock(x.a) || y.seq - x.seq)
          .map(({ a }) => a.trackKey);
      for (const tempo of [100, 130]) {
        const request: TracksRequest = { filter: { tempo: { min: tempo } }, orderBy: { field: 'TAG', tag: 'rock', direction: 'DESC' }, first: 100 };
        const want = byRock((a) => a.features.tempo >= tempo);
        expect(want.length).toBeGreaterThan(tempo === 100 ? 2500 : 1000);
        const first = await browse.tracks({ ...request, first: 7 });
        expect(first.edges.map((e) => e.node.trackKey)).toEqual(want.slice(0, 7));
        expect(first.edges.map((e) => e.node.features.tags?.length)).toEqual(new Array(7).fill(1));
        expect((await all(request)).keys).toEqual(want);
        expect((await allBackward(request, 100)).keys).toEqual(want);
        const late = await browse.tracks({ ...request, first: 3, after: first.edges[2]!.cursor });
        expect(late.edges.map((e) => e.node.trackKey)).toEqual(want.slice(3, 6));
      }
      if (sqlite) {
        const tagOrderPlan = (await databasePlan({ filter: { tempo: { min: 100 } }, orderBy: { field: 'TAG', tag: 'rock', direction: 'DESC' }, first: 20 })).join('\n');
        expect(tagOrderPlan).toMatch(/then:\n(SCAN|SEARCH) analyses USING COVERING INDEX analyses_features( \(.*\))?\nthen:\nCO-ROUTINE \(subquery-1\)\nSEARCH analysis_tags USING COVERING INDEX analysis_tags_by_tag \(tag=\?\)\n/);
        expect(tagOrderPlan).not.toMatch(/SEARCH w USING PRIMARY KEY/);
        const plan = (await databasePlan({ filter: { tags: [{ name: 'rock', min: 0.5 }] }, orderBy: { field: 'ENERGY', direction: 'DESC' }, first: 20 })).join('\n');
        // The tag's analyses from its index alone, then the order index alone, then the page's rows by seq; not analyses_features whole.
        expect(plan).toMatch(/then:\nSEARCH analysis_tags USING COVERING INDEX analysis_tags_by_tag \(tag=\? AND milli>\?\)\nthen:\nCO-ROUTINE \(subquery-1\)\nSCAN analyses USING COVERING INDEX analyses_by_energy\n/);
        expect(plan).toMatch(/then:\nCO-ROUTINE \(subquery-1\)\nSEARCH analyses USING COVERING INDEX analyses_by_energy \(\(energy,seq\)<\(\?,\?\)\)\n/);
        expect(plan).toMatch(/SEARCH analyses USING INDEX analyses_seq \(seq=\?\)$/);
        expect(plan).not.toMatch(/analyses_features/);
      }
    });
  });
}
