import type { SourceTrack, SourceTrackStore } from '../../src/analysis/store/source-tracks.store';
import type { StoreUnderTest } from './sql-database';

const song = (sourceId: string, trackKey: string, version: string | null = null, source = 'subsonic'): SourceTrack => ({ source, sourceId, trackKey, version });

/**
 * What every store of music servers' song ids promises the runner, the whole-server index and
 * playlists, whatever database is behind it. Run against each with a factory of empty stores
 * (sql-stores.*.contract.test.ts).
 */
export function describeSourceTrackStoreContract(label: string, factory: () => Promise<StoreUnderTest<SourceTrackStore>>): void {
  describe(`source track store contract: ${label}`, () => {
    let under: StoreUnderTest<SourceTrackStore>;
    let store: SourceTrackStore;
    beforeEach(async () => {
      under = await factory();
      store = under.store;
    });
    afterEach(() => under.close());

    it('when nothing is recorded, then nothing is found', async () => {
      expect(await store.byIds('subsonic', ['a'])).toEqual(new Map());
      expect(await store.byTrackKeys('subsonic', ['0123456789abcdef'])).toEqual(new Map());
      await store.put([]);
      await store.remove('subsonic', ['a']);
    });

    it('records songs and finds them by id and by track key, each source apart', async () => {
      await store.put([song('a', '0000000000000001', 'v1'), song('b', '0000000000000002'), song('a', '0000000000000009', 'x', 'other')]);
      expect(await store.byIds('subsonic', ['a', 'b', 'c'])).toEqual(new Map([['a', song('a', '0000000000000001', 'v1')], ['b', song('b', '0000000000000002')]]));
      expect(await store.byTrackKeys('subsonic', ['0000000000000002', '0000000000000009'])).toEqual(new Map([['0000000000000002', song('b', '0000000000000002')]]));
      expect(await store.byIds('other', ['a'])).toEqual(new Map([['a', song('a', '0000000000000009', 'x', 'other')]]));
    });

    it('a version left unsaid keeps the recorded one while the song names the same track, and is forgotten when it names another', async () => {
      await store.put([song('a', '0000000000000001', 'v1'), song('b', '0000000000000002', 'v2')]);
      await store.put([{ source: 'subsonic', sourceId: 'a', trackKey: '0000000000000001' }, { source: 'subsonic', sourceId: 'b', trackKey: '0000000000000003' }]);
      expect(await store.byIds('subsonic', ['a', 'b'])).toEqual(new Map([['a', song('a', '0000000000000001', 'v1')], ['b', song('b', '0000000000000003')]]));
      await store.put([song('a', '0000000000000001', 'v9')]);
      expect((await store.byIds('subsonic', ['a'])).get('a')?.version).toBe('v9');
    });

    it('finds one song of a track several songs give, and forgets removed songs', async () => {
      await store.put([song('a', '0000000000000001', 'v1'), song('b', '0000000000000001', 'v1')]);
      expect(['a', 'b']).toContain((await store.byTrackKeys('subsonic', ['0000000000000001'])).get('0000000000000001')?.sourceId);
      await store.remove('subsonic', ['a', 'b']);
      expect(await store.byTrackKeys('subsonic', ['0000000000000001'])).toEqual(new Map());
    });

    it('records and reads more songs than one statement holds', async () => {
      const many = Array.from({ length: 1200 }, (_, i) => song(`id-${i}`, i.toString(16).padStart(16, '0'), `v${i}`));
      await store.put(many);
      const found = await store.byIds('subsonic', many.map((s) => s.sourceId));
      expect(found.size).toBe(1200);
      expect(found.get('id-1199')).toEqual(many[1199]);
      expect((await store.byTrackKeys('subsonic', many.map((s) => s.trackKey))).size).toBe(1200);
    });
  });
}
