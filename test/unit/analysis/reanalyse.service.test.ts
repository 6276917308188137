import { pino } from 'pino';
import { LocalAnalysisEvents } from '../../../src/analysis/events/analysis-events.channel';
import { ReanalyseService, isToRedo, parseOlderThan, type CurrentEngine } from '../../../src/analysis/reanalyse.service';
import type { AnalysisStore, StoredSummary } from '../../../src/analysis/store/store';
import { ANALYSIS_REPLACED, type AnalysisEvent } from '../../../src/core/analysis-events';
import { AppError } from '../../../src/core/errors';
import type { StoredAnalysis, TrackMetadata } from '../../../src/core/types';
import { syntheticAnalysis } from '../../../measure/store/synthetic-analyses';

const CURRENT: CurrentEngine = { engine: 'trackgraph-engine/11', version: 11, method: 'signal' };
const logger = pino({ level: 'silent' });

describe('isToRedo', () => {
  it.each([
    ['trackgraph-engine/10', true],
    ['trackgraph-engine/10 models:musicnn-msd-2', true],
    ['trackgraph-engine/11', false],
    ['trackgraph-engine/11 models:musicnn-msd-2', true],
    ['trackgraph-engine/12', false],
    ['upstream:other/3', false],
    ['trackgraph-engine/1x', false],
  ])('%s → %s (current: version 11, signal)', (engine, expected) => {
    expect(isToRedo(engine, CURRENT)).toBe(expected);
  });

  it('with olderThan, only the version counts', () => {
    expect(isToRedo('trackgraph-engine/9 models:x', CURRENT, 10)).toBe(true);
    expect(isToRedo('trackgraph-engine/10', CURRENT, 10)).toBe(false);
  });

  it('parses a version or an engine string, and refuses anything else', () => {
    expect(parseOlderThan('11')).toBe(11);
    expect(parseOlderThan(' trackgraph-engine/7 ')).toBe(7);
    expect(parseOlderThan(3)).toBe(3);
    for (const bad of ['', 'eleven', '-1', '1.5', 'other-engine/3', null]) expect(() => parseOlderThan(bad)).toThrow(/olderThan must be an engine version/);
  });
});

/** A store over a map, with listOtherEngines as SQL does it (by key, after a key, a limit). */
function mapStore(rows: StoredAnalysis[], failReplaceOf?: string): AnalysisStore & { rows: Map<string, StoredAnalysis> } {
  const map = new Map(rows.map((r) => [r.trackKey, r]));
  return {
    rows: map,
    get: async (k) => map.get(k),
    getMany: async () => new Map(),
    save: async () => false,
    async replace(a) {
      if (a.trackKey === failReplaceOf) throw new AppError('SERVICE_UNAVAILABLE', 'the database is unreachable');
      if (!map.has(a.trackKey)) return false;
      map.set(a.trackKey, a);
      return true;
    },
    async listOtherEngines(current, page) {
      return [...map.values()]
        .filter((a) => a.features.engine !== current && a.features.engine.startsWith('trackgraph-engine/') && (page.after === undefined || a.trackKey > page.after))
        .sort((x, y) => (x.trackKey < y.trackKey ? -1 : 1))
        .slice(0, page.limit)
        .map((a): StoredSummary => ({ trackKey: a.trackKey, artist: a.artist, trackName: a.trackName, engine: a.features.engine, source: a.source }));
    },
    count: async () => map.size,
    ping: async () => undefined,
    close: async () => undefined,
  };
}

const older = (i: number, engine = 'trackgraph-engine/10'): StoredAnalysis => {
  const a = syntheticAnalysis(i);
  return { ...a, source: 'library', features: { ...a.features, engine } };
};

describe('ReanalyseService', () => {
  const locator = { locate: async (s: StoredSummary): Promise<TrackMetadata> => ({ trackKey: s.trackKey, artist: s.artist, trackName: s.trackName, source: s.source }) };

  it('redoes at most `concurrency` tracks at once, replaces each and announces each replacement', async () => {
    const rows = Array.from({ length: 9 }, (_, i) => older(i + 1));
    const store = mapStore([...rows, older(50, CURRENT.engine)]);
    let running = 0;
    let most = 0;
    const reanalyser = {
      async analyseAgain(track: TrackMetadata): Promise<StoredAnalysis> {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        const was = store.rows.get(track.trackKey)!;
        return { ...was, analysedAt: '2031-01-01T00:00:00.000Z', features: { ...was.features, engine: CURRENT.engine, tempo: 150 } };
      },
    };
    const events = new LocalAnalysisEvents(logger);
    const heard: AnalysisEvent[] = [];
    events.subscribe((e) => void heard.push(e));
    const service = new ReanalyseService(store, locator, reanalyser, events, CURRENT, { concurrency: 3 }, logger);
    const seen: number[] = [];
    const result = await service.run({}, (p) => seen.push(p.done));
    expect(most).toBe(3);
    expect(result).toMatchObject({ state: 'done', total: 9, done: 9, replaced: 9, unavailable: [], failed: [], byEngine: { 'trackgraph-engine/10': 9 } });
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const r of rows) expect(store.rows.get(r.trackKey)!.features.tempo).toBe(150);
    expect(heard.map((e) => e.type)).toEqual(new Array(9).fill(ANALYSIS_REPLACED));
    expect(new Set(heard.map((e) => e.trackKey))).toEqual(new Set(rows.map((r) => r.trackKey)));
    expect(heard[0]).toMatchObject({ previousEngine: 'trackgraph-engine/10' });
  });

  it('keeps the old analysis of a track whose audio is gone, or whose new analysis or replacement failed, and reports each', async () => {
    const [gone, broken, unwritable, fine] = [older(1), older(2), older(3), older(4)];
    const store = mapStore([gone, broken, unwritable, fine], unwritable.trackKey);
    const reanalyser = {
      async analyseAgain(track: TrackMetadata): Promise<StoredAnalysis> {
        if (track.trackKey === gone.trackKey) throw new AppError('NO_AUDIO_SOURCE', 'library no longer has audio');
        if (track.trackKey === broken.trackKey) throw new AppError('AUDIO_UNDECODABLE', 'not audio');
        const was = store.rows.get(track.trackKey)!;
        return { ...was, features: { ...was.features, engine: CURRENT.engine } };
      },
    };
    const events = new LocalAnalysisEvents(logger);
    const heard: string[] = [];
    events.subscribe((e) => void heard.push(e.trackKey));
    const result = await new ReanalyseService(store, locator, reanalyser, events, CURRENT, { concurrency: 2 }, logger).run({});
    expect(result.replaced).toBe(1);
    expect(result.unavailable).toEqual([expect.objectContaining({ trackKey: gone.trackKey, code: 'NO_AUDIO_SOURCE' })]);
    expect(result.failed.map((f) => [f.trackKey, f.code]).sort()).toEqual(
      [
        [broken.trackKey, 'AUDIO_UNDECODABLE'],
        [unwritable.trackKey, 'SERVICE_UNAVAILABLE'],
      ].sort(),
    );
    for (const kept of [gone, broken, unwritable]) expect(store.rows.get(kept.trackKey)).toBe(kept);
    expect(heard).toEqual([fine.trackKey]);
  });

  it('walks the store in pages past the first', async () => {
    const rows = Array.from({ length: 1203 }, (_, i) => older(i + 1));
    const store = mapStore(rows);
    const reanalyser = { analyseAgain: jest.fn() };
    const result = await new ReanalyseService(store, locator, reanalyser, new LocalAnalysisEvents(logger), CURRENT, { concurrency: 2 }, logger).run({ dryRun: true });
    expect(result.total).toBe(new Set(rows.map((r) => r.trackKey)).size);
    expect(reanalyser.analyseAgain).not.toHaveBeenCalled();
  });

  it('runs one admin job at a time: starting again answers the running job', async () => {
    const store = mapStore([older(1)]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reanalyser = {
      async analyseAgain(track: TrackMetadata): Promise<StoredAnalysis> {
        await gate;
        return { ...store.rows.get(track.trackKey)!, features: { ...store.rows.get(track.trackKey)!.features, engine: CURRENT.engine } };
      },
    };
    const service = new ReanalyseService(store, locator, reanalyser, new LocalAnalysisEvents(logger), CURRENT, { concurrency: 1 }, logger);
    const first = service.start({});
    const second = service.start({});
    expect(first.started).toBe(true);
    expect(second).toMatchObject({ id: first.id, started: false });
    release();
    await service.idle();
    expect(service.job(first.id)).toMatchObject({ state: 'done', replaced: 1 });
    const third = service.start({});
    expect(third.id).not.toBe(first.id);
    await service.idle();
  });
});

describe('ReanalyseService.stop', () => {
  it('finishes the tracks started, starts no other, and leaves the rest for the next run', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => older(i + 1));
    const store = mapStore(rows);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const reanalyser = {
      async analyseAgain(track: TrackMetadata): Promise<StoredAnalysis> {
        calls++;
        await gate;
        const was = store.rows.get(track.trackKey)!;
        return { ...was, features: { ...was.features, engine: CURRENT.engine } };
      },
    };
    const locate = { locate: async (s: StoredSummary): Promise<TrackMetadata> => ({ trackKey: s.trackKey, artist: s.artist, trackName: s.trackName, source: s.source }) };
    const service = new ReanalyseService(store, locate, reanalyser, new LocalAnalysisEvents(logger), CURRENT, { concurrency: 2 }, logger);
    const job = service.start({});
    while (calls < 2) await new Promise((resolve) => setImmediate(resolve));
    const stopped = service.stop();
    release();
    await stopped;
    expect(calls).toBe(2);
    expect(service.job(job.id)).toMatchObject({ state: 'done', total: 6, done: 2, replaced: 2 });
    expect([...store.rows.values()].filter((r) => r.features.engine === CURRENT.engine)).toHaveLength(2);
  });
});
