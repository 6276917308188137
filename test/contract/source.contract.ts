import { existsSync } from 'node:fs';
import { SOURCE_NAMES } from '../../src/config';
import { AppError } from '../../src/core/errors';
import { trackKey } from '../../src/core/track-key';
import type { TrackCandidate, TrackMetadata } from '../../src/core/types';
import {
  isAnalysisSource,
  isAudioSource,
  isMetadataSource,
  type SearchQuery,
  type Source,
} from '../../src/sources/source';

/** A source ready to test, with one query it can answer and one it cannot. */
export interface SourceUnderTest {
  source: Source;
  /** A query with at least one match; the first result is used for the audio checks. */
  knownQuery: SearchQuery;
  /** A query with no match. */
  unknownQuery: SearchQuery;
  close(): Promise<void>;
}

const ctx = () => ({ signal: AbortSignal.timeout(10_000) });
const isHttpUrl = (v: string): boolean => /^https?:\/\/[^\s]+$/.test(v);
const toMetadata = (c: TrackCandidate): TrackMetadata => ({ ...c, trackKey: trackKey(c.artist, c.trackName) });

/**
 * What every source promises the search and analysis services, whatever catalogue is behind
 * it. Run against each implementation with a factory (see the *.contract.test.ts runners).
 */
export function describeSourceContract(label: string, factory: () => Promise<SourceUnderTest>): void {
  describe(`source contract: ${label}`, () => {
    let under: SourceUnderTest;
    beforeEach(async () => {
      under = await factory();
    });
    afterEach(async () => {
      await under.close();
    });

    it('has a stable name that SOURCES can enable, and at least one ability', () => {
      expect(SOURCE_NAMES as readonly string[]).toContain(under.source.name);
      const s = under.source;
      expect(isMetadataSource(s) || isAudioSource(s) || isAnalysisSource(s)).toBe(true);
    });

    it('searches: well-formed candidates, named after the source', async () => {
      const s = under.source;
      if (!isMetadataSource(s)) return;
      const found = await s.search(under.knownQuery, ctx());
      expect(found.length).toBeGreaterThan(0);
      for (const c of found) {
        expect(c.source).toBe(s.name);
        expect(typeof c.artist).toBe('string');
        expect(c.artist.trim()).not.toBe('');
        expect(c.trackName.trim()).not.toBe('');
        if (c.durationMs !== undefined) expect(Number.isInteger(c.durationMs) && c.durationMs > 0).toBe(true);
        if (c.sourceScore !== undefined) {
          expect(c.sourceScore).toBeGreaterThanOrEqual(0);
          expect(c.sourceScore).toBeLessThanOrEqual(1);
        }
        if (c.thumbnailUrl !== undefined) expect(isHttpUrl(c.thumbnailUrl)).toBe(true);
        if (c.audio !== undefined) {
          expect(c.audio.source).not.toBe('');
          expect(c.audio.locator).not.toBe('');
          if (c.audio.url !== undefined) expect(isHttpUrl(c.audio.url)).toBe(true);
        }
      }
    });

    it('honours the limit', async () => {
      const s = under.source;
      if (!isMetadataSource(s)) return;
      const found = await s.search({ ...under.knownQuery, limit: 1 }, ctx());
      expect(found.length).toBeLessThanOrEqual(1);
    });

    it('answers a query it has nothing for with an empty list, not an error', async () => {
      const s = under.source;
      if (!isMetadataSource(s)) return;
      await expect(s.search(under.unknownQuery, ctx())).resolves.toEqual([]);
    });

    it('gives the audio of its own results', async () => {
      const s = under.source;
      if (!isMetadataSource(s) || !isAudioSource(s)) return;
      const found = await s.search(under.knownQuery, ctx());
      const own = found.find((c) => c.audio?.source === s.name);
      expect(own).toBeDefined();
      const input = await s.fetchAudio(toMetadata(own!), ctx());
      if ('bytes' in input) expect(input.bytes.byteLength).toBeGreaterThan(0);
      else expect(existsSync(input.path)).toBe(true);
    });

    it('refuses, as NO_AUDIO_SOURCE, audio that another source holds', async () => {
      const s = under.source;
      if (!isAudioSource(s)) return;
      const foreign: TrackMetadata = {
        artist: 'Nobody',
        trackName: 'Nothing',
        trackKey: trackKey('Nobody', 'Nothing'),
        source: 'elsewhere',
        audio: { source: 'elsewhere', locator: 'x' },
      };
      const error = await s.fetchAudio(foreign, ctx()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('NO_AUDIO_SOURCE');
    });

    it('finds audio for a metadata-only description of its own recording, and none for an unknown one', async () => {
      const s = under.source;
      if (!isAudioSource(s) || !s.findAudio || !isMetadataSource(s)) return;
      const [first] = await s.search(under.knownQuery, ctx());
      const { audio: _audio, ...described } = toMetadata(first!);
      const ref = await s.findAudio({ ...described, source: 'musicbrainz' }, ctx());
      expect(ref?.source).toBe(s.name);
      const unknown = { artist: 'Nobody', trackName: under.unknownQuery.track, trackKey: trackKey('Nobody', under.unknownQuery.track), source: 'musicbrainz' };
      await expect(s.findAudio(unknown, ctx())).resolves.toBeUndefined();
    });

    it('answers analyses of its own results', async () => {
      const s = under.source;
      if (!isAnalysisSource(s) || !isMetadataSource(s)) return;
      const [first] = await s.search(under.knownQuery, ctx());
      const stored = await s.fetchAnalysis(toMetadata(first!), ctx());
      expect(stored.source).toBe(s.name);
      expect(Number.isFinite(stored.features.tempo)).toBe(true);
      expect(stored.features.key).toBeGreaterThanOrEqual(-1);
      expect(stored.features.key).toBeLessThanOrEqual(11);
    });
  });
}
