import type { AnalysisStore } from '../../src/analysis/store/store';
import { syntheticAnalysis } from '../../measure/store/synthetic-analyses';

/** A store ready to test on an empty schema. */
export interface StoreUnderTest {
  store: AnalysisStore;
  close(): Promise<void>;
}

/**
 * What every analysis store promises the services, whatever database is behind it. Run against
 * each implementation with a factory (store.sqlite.contract.test.ts, store.postgres.contract.test.ts).
 */
export function describeStoreContract(label: string, factory: () => Promise<StoreUnderTest>): void {
  describe(`analysis store contract: ${label}`, () => {
    let under: StoreUnderTest;
    let store: AnalysisStore;
    beforeEach(async () => {
      under = await factory();
      store = under.store;
    });
    afterEach(() => under.close());

    it('when nothing is stored, then get answers undefined, getMany an empty map and count 0', async () => {
      expect(await store.get(syntheticAnalysis(1).trackKey)).toBeUndefined();
      expect((await store.getMany([syntheticAnalysis(1).trackKey])).size).toBe(0);
      expect(await store.count()).toBe(0);
    });

    it('gives back every field it was given, timeline included', async () => {
      const a = syntheticAnalysis(7);
      a.features.timeline = {
        beats: [{ start: 0.5, duration: 0.25, confidence: 0.9 }],
        bars: [{ start: 0.5, duration: 1, confidence: 0.8 }],
        sections: [{ start: 0, duration: 10, confidence: 1, loudness: -9.5, tempo: 120, tempoConfidence: 0.7, key: 9, keyConfidence: 0.6, mode: 0, modeConfidence: 0.5 }],
      };
      expect(await store.save(a)).toBe(true);
      expect(await store.get(a.trackKey)).toEqual(a);
    });

    it('gives back the segments, tempo alternatives and tuning of an analysis that has them, and none to one without', async () => {
      const a = syntheticAnalysis(8);
      a.features.timeline = {
        beats: [],
        bars: [],
        sections: [],
        segments: [{ start: 0, duration: 0.3, confidence: 0, loudnessStart: -20, loudnessMax: -12.5, loudnessMaxTime: 0.05, loudnessEnd: -30, pitches: [1, ...new Array(11).fill(0.25)], timbre: [40, ...new Array(11).fill(-1.5)] }],
      };
      a.features.tempoAlternatives = [{ tempo: 61.2, confidence: 0.21 }, { tempo: 244.8, confidence: 0.02 }];
      a.features.tags = [{ name: 'rock', probability: 0.41 }, { name: 'female vocalists', probability: 0.007 }];
      a.features.tuningHz = 443.1;
      const without = syntheticAnalysis(9);
      await store.save(a);
      await store.save(without);
      expect(await store.get(a.trackKey)).toEqual(a);
      const back = await store.get(without.trackKey);
      expect(back).toEqual(without);
      expect(back!.features).not.toHaveProperty('tempoAlternatives');
      expect(back!.features).not.toHaveProperty('tags');
      expect(back!.features).not.toHaveProperty('tuningHz');
      expect((await store.getMany([a.trackKey])).get(a.trackKey)).toEqual(a);
    });

    it('when a key is saved twice, then the first analysis wins and the second save says false', async () => {
      const first = syntheticAnalysis(2);
      const second = { ...syntheticAnalysis(3), trackKey: first.trackKey, artist: first.artist, trackName: first.trackName };
      expect(await store.save(first)).toBe(true);
      expect(await store.save(second)).toBe(false);
      expect(await store.get(first.trackKey)).toEqual(first);
      expect(await store.count()).toBe(1);
    });

    it('when many saves of one key race, then exactly one is stored', async () => {
      const racers = Array.from({ length: 20 }, (_, i) => ({ ...syntheticAnalysis(100 + i), trackKey: syntheticAnalysis(100).trackKey }));
      const results = await Promise.all(racers.map((a) => store.save(a)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.count()).toBe(1);
      const winner = racers[results.indexOf(true)]!;
      expect(await store.get(winner.trackKey)).toEqual(winner);
    });

    it('getMany reads many keys at once, leaving out absent ones and repeating none', async () => {
      const stored = [syntheticAnalysis(10), syntheticAnalysis(11), syntheticAnalysis(12)];
      for (const a of stored) await store.save(a);
      const absent = syntheticAnalysis(13).trackKey;
      const found = await store.getMany([stored[0]!.trackKey, absent, stored[2]!.trackKey, stored[0]!.trackKey]);
      expect([...found.keys()].sort()).toEqual([stored[0]!.trackKey, stored[2]!.trackKey].sort());
      expect(found.get(stored[2]!.trackKey)).toEqual(stored[2]);
      expect((await store.getMany([])).size).toBe(0);
    });

    it('when an analysis is replaced, then every read gives the new one, and the key is stored once', async () => {
      const old = { ...syntheticAnalysis(3), features: { ...syntheticAnalysis(3).features, engine: 'trackgraph-engine/1', tempo: 90 } };
      await store.save(old);
      const fresh = { ...old, analysedAt: '2030-01-01T00:00:00.000Z', features: { ...old.features, engine: 'trackgraph-engine/2', tempo: 128.5, key: (old.features.key + 1) % 12 } };
      expect(await store.replace(fresh)).toBe(true);
      expect(await store.get(old.trackKey)).toEqual(fresh);
      expect((await store.getMany([old.trackKey])).get(old.trackKey)).toEqual(fresh);
      expect(await store.count()).toBe(1);
    });

    it('when no analysis of the key is stored, then replace writes nothing and says false', async () => {
      const a = syntheticAnalysis(4);
      expect(await store.replace(a)).toBe(false);
      expect(await store.get(a.trackKey)).toBeUndefined();
      expect(await store.count()).toBe(0);
    });

    it('lists the analyses of other engines of this engine, by trackKey, in pages that resume after a key', async () => {
      const current = 'trackgraph-engine/9';
      const engines = ['trackgraph-engine/8', current, 'trackgraph-engine/9 models:x', 'upstream:other/3', 'trackgraph-engine/2'];
      const saved = engines.map((engine, i) => ({ ...syntheticAnalysis(20 + i), features: { ...syntheticAnalysis(20 + i).features, engine } }));
      for (const a of saved) await store.save(a);
      const expected = saved
        .filter((a) => a.features.engine !== current && a.features.engine.startsWith('trackgraph-engine/'))
        .map((a) => ({ trackKey: a.trackKey, artist: a.artist, trackName: a.trackName, engine: a.features.engine, source: a.source }))
        .sort((x, y) => (x.trackKey < y.trackKey ? -1 : 1));
      expect(expected).toHaveLength(3);
      const first = await store.listOtherEngines(current, { limit: 2 });
      expect(first).toEqual(expected.slice(0, 2));
      const rest = await store.listOtherEngines(current, { after: first[1]!.trackKey, limit: 2 });
      expect(rest).toEqual(expected.slice(2));
      expect(await store.listOtherEngines(current, { after: expected[2]!.trackKey, limit: 2 })).toEqual([]);
    });

    it('ping resolves while the database is reachable', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
