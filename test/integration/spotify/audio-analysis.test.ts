import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { trackKey } from '../../../src/core/track-key';
import { SpotifyTimelineDocument } from '../../generated/graphql';
import { encodeWav } from '../../../measure/audio/audio-signals';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { drumPattern } from '../../../measure/audio/signals';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, storedAnalysis } from '../graphql/graphql.helpers';

const GROOVE = trackKey('Test Drums', 'Groove');
const TOP_LEVEL = ['bars', 'beats', 'meta', 'sections', 'segments', 'tatums', 'track'];
const SEGMENT_FIELDS = ['confidence', 'duration', 'loudness_end', 'loudness_max', 'loudness_max_time', 'loudness_start', 'pitches', 'start', 'timbre'];
const SECTION_FIELDS = [
  'confidence', 'duration', 'key', 'key_confidence', 'loudness', 'mode', 'mode_confidence', 'start', 'tempo', 'tempo_confidence',
  'time_signature', 'time_signature_confidence',
];

interface Span {
  start: number;
  duration: number;
  confidence: number;
}

describe("GET /v1/audio-analysis/{id} (Spotify's shape), analysed by the engine", () => {
  let t: TestApp;

  beforeAll(async () => {
    // A 4/4 drum groove at 100 BPM with eighth-note hats, a bass note and chord every bar.
    t = await createTestApp({
      prepareLibrary: (dir) => writeFile(path.join(dir, 'Test Drums - Groove.wav'), encodeWav([drumPattern({ bpm: 100, seconds: 14, beatsPerBar: 4 })], 44100)),
    });
    await request(t.app).get('/api/audio/search?track=Groove&artist=Test+Drums').set(t.auth).expect(200);
  }, 30_000);
  afterAll(() => t.close());

  const get = (url: string) => request(t.app).get(url).set(t.auth);

  /** The answer once the analysis is stored (202 until then). */
  async function settled(url: string): Promise<request.Response> {
    let res = await get(url);
    for (let i = 0; i < 100 && res.status === 202; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await get(url);
    }
    return res;
  }

  it('has Spotify’s objects, the same beats, bars and sections as the contract’s timeline, and two tatums per beat', async () => {
    const res = await settled(`/v1/audio-analysis/${GROOVE}`);
    expect(res.status).toBe(200);
    const a = res.body;
    expect(Object.keys(a).sort()).toEqual(TOP_LEVEL);
    const timeline = (await get(`/api/audio/analysis/${GROOVE}/timeline`).expect(200)).body.data;
    expect(a.beats).toEqual(timeline.beats);
    expect(a.bars).toEqual(timeline.bars);
    expect(a.sections.map((s: Span) => s.start)).toEqual(timeline.sections.map((s: Span) => s.start));
    for (const s of a.sections) expect(Object.keys(s).sort()).toEqual(SECTION_FIELDS);
    expect(a.tatums).toHaveLength(2 * a.beats.length);
    expect(a.tatums[0].start).toBe(a.beats[0].start);
    expect(a.tatums[2].start).toBe(a.beats[1].start);

    const contract = (await get(`/api/audio/analysis/${GROOVE}`).expect(200)).body.data;
    expect(a.track).toMatchObject({ tempo: contract.tempo, time_signature: contract.timeSignature, duration: 14, offset_seconds: 0, window_seconds: 14 });
    expect(a.track.tempo).toBeGreaterThan(97);
    expect(a.track.tempo).toBeLessThan(103);
    expect(a.meta.analyzer_version).toMatch(/^trackgraph-engine\/\d+/);
  });

  it('segments start at the groove’s hits (two per beat, the hats’ eighths), tile the window, and carry 12 pitches and 12 timbre values', async () => {
    const a = (await settled(`/v1/audio-analysis/${GROOVE}`)).body;
    const segments = a.segments as (Span & { pitches: number[]; timbre: number[]; loudness_max: number; loudness_start: number })[];
    // 14 s at 100 BPM: 23⅓ beats, an eighth-note hit every 0.3 s.
    expect(segments.length).toBeGreaterThanOrEqual(40);
    expect(segments.length).toBeLessThanOrEqual(56);
    for (const [i, s] of segments.entries()) {
      expect(Object.keys(s).sort()).toEqual(SEGMENT_FIELDS);
      expect(s.pitches).toHaveLength(12);
      expect(s.timbre).toHaveLength(12);
      expect(Math.max(...s.pitches)).toBe(1);
      expect(s.loudness_max).toBeGreaterThanOrEqual(s.loudness_start);
      const next = segments[i + 1];
      if (next) expect(s.start + s.duration).toBeCloseTo(next.start, 2);
    }
    // Every beat has a segment starting within 50 ms of it.
    for (const b of a.beats as Span[]) expect(Math.min(...segments.map((s) => Math.abs(s.start - b.start)))).toBeLessThan(0.05);
  });

  it('keeps the level choice’s runner-up: on the analysis object (additive), in audio-analysis and in GraphQL alike', async () => {
    const a = (await settled(`/v1/audio-analysis/${GROOVE}`)).body;
    const contract = (await get(`/api/audio/analysis/${GROOVE}`).expect(200)).body.data;
    expect(Array.isArray(contract.tempoAlternatives)).toBe(true);
    expect(a.track.tempo_alternatives).toEqual(contract.tempoAlternatives);
    for (const alt of contract.tempoAlternatives as { tempo: number; confidence: number }[]) {
      expect(alt.confidence).toBeLessThanOrEqual(a.track.tempo_confidence);
    }

    const res = await graphql(t, SpotifyTimelineDocument, { trackKey: GROOVE });
    const g = res.body.data!.analysis!;
    expect(g.tempoAlternatives).toEqual(contract.tempoAlternatives);
    // The tuning the engine read (generated in concert pitch): the same number everywhere.
    expect(contract.tuningHz).toBeCloseTo(440, 0);
    expect(a.track.tuning_hz).toBe(contract.tuningHz);
    expect(g.tuningHz).toBe(contract.tuningHz);
    expect(g.timeline.beats).toEqual(a.beats);
    expect(g.timeline.tatums).toEqual(a.tatums);
    expect(g.timeline.segments.map((s) => [s.start, s.duration, s.confidence, s.loudnessStart, s.loudnessMax, s.loudnessMaxTime, s.loudnessEnd, s.pitches, s.timbre])).toEqual(
      a.segments.map((s: Record<string, unknown>) => [s.start, s.duration, s.confidence, s.loudness_start, s.loudness_max, s.loudness_max_time, s.loudness_end, s.pitches, s.timbre]),
    );
  });

  it('an unknown id is 404, a malformed one 400, a request without a key 401, all in Spotify’s error shape', async () => {
    expect((await get('/v1/audio-analysis/0000000000000000').expect(404)).body).toEqual({ error: { status: 404, message: expect.stringMatching(/unknown trackKey/) } });
    expect((await get('/v1/audio-analysis/not-an-id').expect(400)).body).toEqual({ error: { status: 400, message: expect.any(String) } });
    expect((await request(t.app).get(`/v1/audio-analysis/${GROOVE}`).expect(401)).body.error.status).toBe(401);
  });
});

describe('GET /v1/audio-analysis/{id} of an analysis made before segments were measured', () => {
  it('answers what the stored timeline holds: beats and their tatums, no segments, no tempo alternatives; the contract object has no additive field then', async () => {
    const t = await createTestApp({ engine: new FakeEngine() });
    try {
      const old = storedAnalysis('Old Band', 'Old Song');
      await t.container.store.save(old);
      const res = await request(t.app).get(`/v1/audio-analysis/${old.trackKey}`).set(t.auth).expect(200);
      expect(res.body.segments).toEqual([]);
      expect(res.body.track.tempo_alternatives).toEqual([]);
      expect(res.body.beats).toEqual(old.features.timeline.beats);
      expect(res.body.tatums).toHaveLength(2 * old.features.timeline.beats.length);
      const contract = (await request(t.app).get(`/api/audio/analysis/${old.trackKey}`).set(t.auth).expect(200)).body.data;
      expect(contract).not.toHaveProperty('tempoAlternatives');
      expect(contract).not.toHaveProperty('tuningHz');
      expect(res.body.track).not.toHaveProperty('tuning_hz');
      const g = await graphql(t, SpotifyTimelineDocument, { trackKey: old.trackKey });
      expect(g.body.data!.analysis!.tuningHz).toBeNull();
      expect(g.body.data!.analysis!.timeline.segments).toEqual([]);
      expect(g.body.data!.analysis!.tempoAlternatives).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
