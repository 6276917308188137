import { ANALYSIS_COMPLETED, ANALYSIS_FAILED, ANALYSIS_REPLACED, type AnalysisEvent, type AnalysisEventListener } from '../../../src/core/analysis-events';
import { AppError } from '../../../src/core/errors';
import { camelotKey } from '../../../src/core/music';
import type { StoredAnalysis, TrackMetadata } from '../../../src/core/types';
import { ANALYSES_AT_ONCE, LibraryTagger } from '../../../src/analysis/library-tagger.service';
import type { LibraryFile, LibraryIndexedListener } from '../../../src/sources/library/library.source';
import { BPM_FIELD, KEY_FIELD, OPEN_KEY_FIELD, type TagValues, type TagWriteOutcome } from '../../../src/sources/library/library.tags';
import { featuresFromBytes } from '../../../measure/http/fake-engine';
import { captureLogs } from '../../helpers/log-capture';

const KEY_A = 'aaaaaaaaaaaaaaaa';
const KEY_B = 'bbbbbbbbbbbbbbbb';
const FILES: LibraryFile[] = [
  { relPath: 'A - One.mp3', trackKey: KEY_A },
  { relPath: 'copies/A - One.flac', trackKey: KEY_A },
  { relPath: 'B - Two.ogg', trackKey: KEY_B },
];

function analysisOf(trackKey: string, seed: number, keyConfidence = 0.9): StoredAnalysis {
  const features = featuresFromBytes(Uint8Array.of(seed, 1, 2, 3));
  return { trackKey, artist: 'A', trackName: 'One', features: { ...features, confidence: { ...features.confidence, key: keyConfidence } }, analysedAt: '2026-11-29T00:00:00.000Z', source: 'library' };
}

/** The library, the analysis service and the event channel the tagger is given, as fakes that record what they are asked. */
function harness(stored: Map<string, StoredAnalysis>, options: { analyseFails?: boolean; writesWaitFor?: Promise<void>; analysesWaitFor?: Promise<void>; files?: LibraryFile[] } = {}) {
  const files = options.files ?? FILES;
  let indexed: LibraryIndexedListener | undefined;
  let heard: AnalysisEventListener | undefined;
  const written: { relPath: string; values: TagValues }[] = [];
  const analysed: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const library = {
    onIndexed(listener: LibraryIndexedListener) {
      indexed = listener;
      return () => (indexed = undefined);
    },
    filesOf: (trackKey: string) => files.filter((f) => f.trackKey === trackKey),
    lookup: (trackKey: string): TrackMetadata | undefined =>
      files.some((f) => f.trackKey === trackKey) ? { trackKey, artist: 'A', trackName: trackKey, source: 'library', audio: { source: 'library', locator: files.find((f) => f.trackKey === trackKey)!.relPath } } : undefined,
    async writeTags(relPath: string, values: TagValues): Promise<TagWriteOutcome> {
      written.push({ relPath, values });
      await options.writesWaitFor;
      return { status: 'written', changes: [...values].map(([field, to]) => ({ field, to })) };
    },
  };
  const analysis = {
    storedMany: (keys: readonly string[]) => Promise.resolve(keys.map((k) => stored.get(k) ?? null)),
    async analyseTrack(track: TrackMetadata): Promise<StoredAnalysis> {
      analysed.push(track.trackKey);
      running++;
      maxRunning = Math.max(maxRunning, running);
      await options.analysesWaitFor;
      running--;
      if (options.analyseFails) throw new AppError('AUDIO_UNDECODABLE', 'the audio could not be decoded');
      const result = analysisOf(track.trackKey, 7);
      stored.set(track.trackKey, result);
      // As the service does: the stored analysis is announced before the job's caller hears of it.
      void heard?.({ type: ANALYSIS_COMPLETED, id: track.trackKey, trackKey: track.trackKey, at: result.analysedAt, analysis: result }, 'local');
      return result;
    },
  };
  const events = {
    subscribe(listener: AnalysisEventListener) {
      heard = listener;
      return () => (heard = undefined);
    },
  };
  const logs = captureLogs();
  const tagger = new LibraryTagger({ library, analysis, events, logger: logs.logger }, { keyNotation: 'camelot', minKeyConfidence: 0.85 });
  tagger.start();
  const settle = async () => {
    // The stored analyses are read, the jobs end, then the writes queued after them.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    await tagger.settled();
  };
  return {
    tagger,
    written,
    analysed,
    logs,
    settle,
    index: (files: LibraryFile[], read = true) => indexed!(files.map((f) => ({ ...f, read }))),
    hear: (event: AnalysisEvent): void => void heard!(event, 'remote'),
    get maxRunning() {
      return maxRunning;
    },
    get subscribed() {
      return indexed !== undefined || heard !== undefined;
    },
  };
}

describe('LibraryTagger (LIBRARY_WRITE_TAGS)', () => {
  it('writes a stored analysis into every file of its track, the key in the notation asked for and only when sure enough', async () => {
    const sure = analysisOf(KEY_A, 1, 0.9);
    const unsure = analysisOf(KEY_B, 2, 0.5);
    const h = harness(new Map([[KEY_A, sure], [KEY_B, unsure]]));
    h.index(FILES);
    await h.settle();
    expect(h.written.map((w) => w.relPath)).toEqual(['A - One.mp3', 'copies/A - One.flac', 'B - Two.ogg']);
    expect(h.written[0]!.values.get(BPM_FIELD)).toBe(String(Math.round(sure.features.tempo)));
    expect(h.written[0]!.values.get(KEY_FIELD)).toBe(camelotKey(sure.features.key, sure.features.mode));
    expect(h.written[2]!.values.get(BPM_FIELD)).toBe(String(Math.round(unsure.features.tempo)));
    expect(h.written[2]!.values.has(KEY_FIELD)).toBe(false);
    expect(h.written[2]!.values.has(OPEN_KEY_FIELD)).toBe(false);
    expect(h.analysed).toEqual([]);
  });

  it('analyses a track with no stored analysis once, however many of its files are indexed, then tags each of them once', async () => {
    const h = harness(new Map());
    h.index(FILES.slice(0, 2));
    h.index([FILES[0]!]);
    await h.settle();
    expect(h.analysed).toEqual([KEY_A]);
    expect(h.written.map((w) => w.relPath)).toEqual(['A - One.mp3', 'copies/A - One.flac']);
  });

  it('tags the files of an analysis stored or replaced elsewhere; nothing for a failure or a track the library does not hold', async () => {
    const h = harness(new Map());
    const other = analysisOf(KEY_B, 3);
    h.hear({ type: ANALYSIS_COMPLETED, id: '1', trackKey: KEY_B, at: other.analysedAt, analysis: other });
    await h.settle();
    expect(h.written.map((w) => w.relPath)).toEqual(['B - Two.ogg']);
    const replaced = analysisOf(KEY_B, 4);
    h.hear({ type: ANALYSIS_REPLACED, id: '2', trackKey: KEY_B, at: replaced.analysedAt, analysis: replaced, previousEngine: 'old' });
    h.hear({ type: ANALYSIS_FAILED, id: '3', trackKey: KEY_A, at: replaced.analysedAt, error: { code: 'AUDIO_UNDECODABLE', message: 'no' } });
    const stranger = analysisOf('cccccccccccccccc', 5);
    h.hear({ type: ANALYSIS_COMPLETED, id: '4', trackKey: stranger.trackKey, at: stranger.analysedAt, analysis: stranger });
    await h.settle();
    expect(h.written.map((w) => w.relPath)).toEqual(['B - Two.ogg', 'B - Two.ogg']);
    expect(h.written[1]!.values.get(BPM_FIELD)).toBe(String(Math.round(replaced.features.tempo)));
  });

  it('at a start, writes stored analyses only into the files read again, and analyses every file that has none', async () => {
    const h = harness(new Map([[KEY_A, analysisOf(KEY_A, 1)]]));
    h.index(FILES, false);
    await h.settle();
    expect(h.analysed).toEqual([KEY_B]);
    expect(h.written.map((w) => w.relPath)).toEqual(['B - Two.ogg']);
  });

  it('analyses a library at most ANALYSES_AT_ONCE tracks at a time, every track in the end', async () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ relPath: `T - ${i}.mp3`, trackKey: String(i).repeat(16) }));
    let release!: () => void;
    const h = harness(new Map(), { files: many, analysesWaitFor: new Promise((r) => (release = r)) });
    h.index(many);
    await h.settle();
    expect(h.analysed).toHaveLength(ANALYSES_AT_ONCE);
    release();
    while (h.written.length < many.length) await new Promise((r) => setImmediate(r));
    expect([...h.analysed].sort()).toEqual(many.map((f) => f.trackKey).sort());
    expect(h.maxRunning).toBe(ANALYSES_AT_ONCE);
  });

  it('says when an analysis fails and writes nothing for it', async () => {
    const h = harness(new Map(), { analyseFails: true });
    h.index([FILES[2]!]);
    await h.settle();
    expect(h.written).toEqual([]);
    expect(h.logs.lines).toContainEqual(expect.objectContaining({ msg: 'library: the analysis failed; tags not written', code: 'AUDIO_UNDECODABLE', file: 'B - Two.ogg' }));
  });

  it('stops listening when closed, lets the write under way end and drops those queued', async () => {
    let release!: () => void;
    const h = harness(new Map([[KEY_A, analysisOf(KEY_A, 1)]]), { writesWaitFor: new Promise((r) => (release = r)) });
    h.index(FILES.slice(0, 2));
    await eventuallyWritten(h.written, 1);
    const closed = h.tagger.close();
    expect(h.subscribed).toBe(false);
    release();
    await closed;
    expect(h.written.map((w) => w.relPath)).toEqual(['A - One.mp3']);
  });
});

async function eventuallyWritten(written: unknown[], n: number): Promise<void> {
  while (written.length < n) await new Promise((r) => setImmediate(r));
}
