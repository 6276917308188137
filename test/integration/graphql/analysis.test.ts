import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toContractAnalysis } from '../../../src/analysis/contract';
import { DESCRIPTORS, valueOf } from '../../../src/core/descriptors';
import { AppError } from '../../../src/core/errors';
import { PITCH_CLASSES } from '../../../src/core/music';
import { trackKey } from '../../../src/core/track-key';
import { ENGINE_ID } from '../../../src/engine/version';
import {
  AnalysesDocument,
  AnalysisDocument,
  AnalysisStatusDocument,
  AnalysisDescriptorValuesDocument,
  AnalysisMethodAndTagsDocument,
  AnalysisTopTagsDocument,
  AnalysisTempoInRangeDocument,
  AnalysisKeyNamesDocument,
  AnalysisWithConfidenceDocument,
  DescriptorsDocument,
  SearchDocument,
} from '../../generated/graphql';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, onlyError, post, seedAnalyses, storedAnalysis } from './graphql.helpers';

async function library(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money');
  await writeFile(path.join(dir, 'Pink Floyd - Cymbaline.mp3'), 'bytes of cymbaline');
  await writeFile(path.join(dir, 'Broken Band - Noise.mp3'), 'not audio');
}

const MONEY = 'bc24aaa5a97c70ed';

describe('GraphQL analysis', () => {
  let t: TestApp;
  let engine: FakeEngine;

  beforeEach(async () => {
    engine = new FakeEngine();
    t = await createTestApp({ engine, prepareLibrary: library });
  });
  afterEach(() => t.close());

  const search = (track: string, artist: string) => graphql(t, SearchDocument, { track, artist });

  it('answers a stored analysis with every contract field, equal to the contract object', async () => {
    const stored = storedAnalysis('Pink Floyd', 'Money');
    await t.container.store.save(stored);
    const res = await graphql(t, AnalysisDocument, { trackKey: MONEY });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.analysis).toEqual(toContractAnalysis(stored));
    expect(engine.analyseCalls).toBe(0);
  });

  it('lists the registry\'s descriptors and the pitch names, and every value of an analysis in that order', async () => {
    const listed = await graphql(t, DescriptorsDocument, {});
    expect(listed.body.errors).toBeUndefined();
    const { descriptors, pitchClasses } = listed.body.data!;
    expect(descriptors.map((d) => [d.name, d.group])).toEqual(DESCRIPTORS.map((d) => [d.name, d.group === 'mood' ? 'MOOD' : 'DESCRIPTOR']));
    expect(descriptors.find((d) => d.name === 'happy')).toEqual(expect.objectContaining({ label: 'Happy', min: 0, max: 1, orderField: 'MOOD_HAPPY' }));
    expect(pitchClasses).toEqual([...PITCH_CLASSES]);

    const stored = storedAnalysis('Pink Floyd', 'Money');
    await t.container.store.save(stored);
    const res = await graphql(t, AnalysisDescriptorValuesDocument, { trackKey: MONEY });
    const analysis = res.body.data!.analysis!;
    const contract = toContractAnalysis(stored);
    expect(analysis.descriptorValues).toEqual(DESCRIPTORS.map((d) => ({ name: d.name, group: d.group === 'mood' ? 'MOOD' : 'DESCRIPTOR', value: valueOf(contract, d) })));
    expect(analysis.descriptorValues.find((d) => d.name === 'energy')!.value).toBe(analysis.energy);
  });

  it('answers the tagger’s tags, most probable first, of an analysis the models made, and none of one the formulas made', async () => {
    const made = storedAnalysis('Pink Floyd', 'Money');
    const tags = [
      { name: 'rock', probability: 0.412 },
      { name: 'classic rock', probability: 0.18 },
      { name: 'female vocalists', probability: 0.003 },
    ];
    await t.container.store.save({ ...made, features: { ...made.features, tags, engine: `${ENGINE_ID} models:musicnn-msd-2/r32` } });
    const res = await graphql(t, AnalysisMethodAndTagsDocument, { trackKey: MONEY });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.analysis).toEqual({ trackKey: MONEY, method: 'models:musicnn-msd-2/r32', tags });

    const cymbaline = storedAnalysis('Pink Floyd', 'Cymbaline');
    const signal = { ...cymbaline, features: { ...cymbaline.features, engine: ENGINE_ID } };
    await t.container.store.save(signal);
    const without = await graphql(t, AnalysisMethodAndTagsDocument, { trackKey: signal.trackKey });
    expect(without.body.data!.analysis).toEqual({ trackKey: signal.trackKey, method: 'signal', tags: [] });

    // The n most probable only, 1 to 50; out of that range, INVALID_ARGUMENT with the rule.
    const top = await graphql(t, AnalysisTopTagsDocument, { trackKey: MONEY, first: 2 });
    expect(top.body.data!.analysis!.tags).toEqual(tags.slice(0, 2));
    expect((await graphql(t, AnalysisTopTagsDocument, { trackKey: MONEY, first: 50 })).body.data!.analysis!.tags).toEqual(tags);
    for (const [first, message] of [[0, 'first must be at least 1'], [51, 'first must be at most 50']] as const) {
      const refused = await graphql(t, AnalysisTopTagsDocument, { trackKey: MONEY, first });
      expect(onlyError(refused).code).toBe('INVALID_ARGUMENT');
      expect(onlyError(refused).message).toContain(message);
    }
  });

  it('answers the tempo counted within a BPM range, the stored analysis unchanged, and refuses a range that is none', async () => {
    const made = storedAnalysis('Pink Floyd', 'Money');
    // The engine read 87 BPM (0.55); 174 the runner-up (0.3), 130.5 (3:2) after it (0.1).
    const features = { ...made.features, tempo: 87, confidence: { ...made.features.confidence, tempo: 0.55 }, tempoAlternatives: [{ tempo: 174, confidence: 0.3 }, { tempo: 130.5, confidence: 0.1 }] };
    await t.container.store.save({ ...made, features });
    const drumAndBass = await graphql(t, AnalysisTempoInRangeDocument, { trackKey: MONEY, min: 160, max: 180 });
    expect(drumAndBass.body.errors).toBeUndefined();
    expect(drumAndBass.body.data!.analysis).toEqual({ tempo: 87, tempoInRange: { tempo: 174, confidence: 0.85, alternatives: [{ tempo: 130.5, confidence: 0.1 }] } });
    // A range none of the grid's levels lies in: the most probable level halved into it.
    const slow = await graphql(t, AnalysisTempoInRangeDocument, { trackKey: MONEY, min: 40, max: 60 });
    expect(slow.body.data!.analysis!.tempoInRange).toMatchObject({ tempo: 43.5, confidence: 0.85 });
    for (const [min, max] of [[140, 70], [10, 100], [100, 500]] as const) {
      const refused = await graphql(t, AnalysisTempoInRangeDocument, { trackKey: MONEY, min, max });
      expect(onlyError(refused).code).toBe('INVALID_ARGUMENT');
      expect(onlyError(refused).message).toContain(`a BPM range is two tempi from 20 to 400, the lower first, as 70-140; not ${min} to ${max}`);
    }
    expect((await t.container.store.get(MONEY))!.features.tempo).toBe(87);
  });

  it('names the key in the notations DJ software shows', async () => {
    const made = storedAnalysis('Pink Floyd', 'Money');
    // A# minor (B♭ minor): Open Key 8m, Camelot 3A.
    await t.container.store.save({ ...made, features: { ...made.features, key: 10, mode: 0 } });
    const res = await graphql(t, AnalysisKeyNamesDocument, { trackKey: MONEY });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.analysis).toEqual({ key: 10, mode: 0, keyString: 'A# minor', standard: 'A#m', openKey: '8m', camelot: '3A' });
  });

  it('answers the engine’s confidences of tempo, key, mode and time signature', async () => {
    const stored = storedAnalysis('Pink Floyd', 'Money');
    await t.container.store.save(stored);
    const res = await graphql(t, AnalysisWithConfidenceDocument, { trackKey: MONEY });
    expect(res.body.data!.analysis!.confidence).toEqual(stored.features.confidence);
  });

  it('after a search, analyses the file once and then serves the store', async () => {
    await search('Money', 'Pink Floyd');
    const first = await graphql(t, AnalysisDocument, { trackKey: MONEY });
    expect(first.body.data!.analysis).toMatchObject({ trackKey: MONEY, trackName: 'Money', duration_ms: 1000 + 'bytes of money'.length });
    const second = await graphql(t, AnalysisDocument, { trackKey: MONEY });
    expect(second.body).toEqual(first.body);
    expect(engine.analyseCalls).toBe(1);
  });

  it('with artist and track that hash to the key, resolves the track without a prior search', async () => {
    const res = await graphql(t, AnalysisDocument, { trackKey: 'f63116f780b3b1eb', artist: 'Pink Floyd', track: 'Cymbaline' });
    expect(res.body.data!.analysis).toMatchObject({ trackName: 'Cymbaline', meta: { artist: 'Pink Floyd', track: 'Cymbaline' } });
  });

  it('accepts an uppercase key as the same key', async () => {
    await t.container.store.save(storedAnalysis('Pink Floyd', 'Money'));
    const res = await graphql(t, AnalysisDocument, { trackKey: MONEY.toUpperCase() });
    expect(res.body.data!.analysis!.trackKey).toBe(MONEY);
  });

  it('when no source knows the key and nothing was searched, then TRACK_NOT_FOUND telling to search first', async () => {
    const res = await graphql(t, AnalysisDocument, { trackKey: trackKey('Nobody', 'Nothing') });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ analysis: null });
    expect(onlyError(res)).toEqual({
      code: 'TRACK_NOT_FOUND',
      message: expect.stringMatching(/search for the track first.*or pass artist and track/),
      path: ['analysis'],
    });
  });

  it("when the library knows the key, it is analysed without a search (another node's, or an expired one)", async () => {
    const res = await graphql(t, AnalysisDocument, { trackKey: MONEY });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toMatchObject({ analysis: { trackKey: MONEY, artist: 'Pink Floyd', trackName: 'Money' } });
  });

  it.each(['bc24aaa5a97c70e', 'bc24aaa5a97c70edd', 'zz24aaa5a97c70ed', 'money'])(
    'when the key is %s (not 16 hex), then INVALID_ARGUMENT',
    async (key) => {
      const res = await graphql(t, AnalysisDocument, { trackKey: key });
      expect(res.body.data).toEqual({ analysis: null });
      expect(onlyError(res)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/16 lowercase hexadecimal/) });
    },
  );

  it('when artist and track do not hash to the key, then INVALID_ARGUMENT', async () => {
    const res = await graphql(t, AnalysisDocument, { trackKey: trackKey('Nobody', 'Nothing'), artist: 'Pink Floyd', track: 'Money' });
    expect(onlyError(res)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/do not match trackKey/) });
  });

  it('when a hint is over-long, then INVALID_ARGUMENT', async () => {
    const res = await graphql(t, AnalysisDocument, { trackKey: MONEY, artist: 'Pink Floyd', track: 'm'.repeat(301) });
    expect(onlyError(res)).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'track must be at most 300 characters' });
  });

  it('when artist and track hash to the key but no source has it, then TRACK_NOT_FOUND', async () => {
    const res = await graphql(t, AnalysisDocument, { trackKey: trackKey('Nobody', 'Nothing'), artist: 'Nobody', track: 'Nothing' });
    expect(onlyError(res).code).toBe('TRACK_NOT_FOUND');
  });

  it('when the audio cannot be decoded, then AUDIO_UNDECODABLE, nothing is stored, and the server keeps serving', async () => {
    engine.failWith = new AppError('AUDIO_UNDECODABLE', 'the file is not audio in a known format');
    await search('Noise', 'Broken Band');
    const noise = trackKey('Broken Band', 'Noise');
    const res = await graphql(t, AnalysisDocument, { trackKey: noise });
    expect(onlyError(res)).toEqual({ code: 'AUDIO_UNDECODABLE', message: 'the file is not audio in a known format', path: ['analysis'] });
    engine.failWith = undefined;
    await search('Money', 'Pink Floyd');
    expect((await graphql(t, AnalysisDocument, { trackKey: MONEY })).body.data!.analysis!.trackKey).toBe(MONEY);
    expect(await t.container.store.get(noise)).toBeUndefined();
  });

  it('when an unexpected error happens, then INTERNAL without details or stack', async () => {
    engine.failWith = new Error('secret internals at /srv/x.ts:12') as AppError;
    await search('Money', 'Pink Floyd');
    const res = await graphql(t, AnalysisDocument, { trackKey: MONEY });
    expect(onlyError(res)).toEqual({ code: 'INTERNAL', message: expect.any(String), path: ['analysis'] });
    expect(JSON.stringify(res.body)).not.toMatch(/secret internals|x\.ts|stacktrace/);
  });

  it('one failing field leaves the others of the document answered', async () => {
    await t.container.store.save(storedAnalysis('Pink Floyd', 'Money'));
    const both = await post(t, { query: `{ ok: analysis(trackKey: "${MONEY}") { trackKey } bad: analysis(trackKey: "nope") { trackKey } }` });
    expect(both.body.data).toEqual({ ok: { trackKey: MONEY }, bad: null });
    expect(onlyError(both)).toMatchObject({ code: 'INVALID_ARGUMENT', path: ['bad'] });
  });
});

describe('GraphQL analyses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine() });
  });
  afterAll(() => t.close());

  it('answers stored analyses positionally, null where a key has none, and analyses nothing', async () => {
    const [a, b] = await seedAnalyses(t, 2);
    const unknown = trackKey('Nobody', 'Nothing');
    const res = await graphql(t, AnalysesDocument, { trackKeys: [b!, unknown, a!, b!] });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.analyses.map((x) => x?.trackKey ?? null)).toEqual([b, null, a, b]);
  });

  it('takes keys in either case, still in one store read', async () => {
    const [a, b] = await seedAnalyses(t, 2);
    const getMany = jest.spyOn(t.container.store, 'getMany');
    try {
      const res = await graphql(t, AnalysesDocument, { trackKeys: [a!.toUpperCase(), b!] });
      expect(res.body.data!.analyses.map((x) => x?.trackKey ?? null)).toEqual([a, b]);
      expect(getMany).toHaveBeenCalledTimes(1);
    } finally {
      getMany.mockRestore();
    }
  });

  it('answers an empty list for no keys', async () => {
    expect((await graphql(t, AnalysesDocument, { trackKeys: [] })).body.data).toEqual({ analyses: [] });
  });

  it('accepts 100 keys and refuses 101 with INVALID_ARGUMENT', async () => {
    const keys = Array.from({ length: 101 }, (_, i) => trackKey('Many', `Track ${i}`));
    const ok = await graphql(t, AnalysesDocument, { trackKeys: keys.slice(0, 100) });
    expect(ok.body.data!.analyses).toHaveLength(100);
    const res = await graphql(t, AnalysesDocument, { trackKeys: keys });
    expect(res.body.data).toBeNull();
    expect(onlyError(res)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/at most 100 track keys/) });
  });

  it('when one key is malformed, then INVALID_ARGUMENT for the field', async () => {
    const res = await graphql(t, AnalysesDocument, { trackKeys: [trackKey('A', 'B'), 'not-a-key'] });
    expect(onlyError(res)).toMatchObject({ code: 'INVALID_ARGUMENT', path: ['analyses'] });
  });
});

describe('GraphQL analysisStatus', () => {
  it('tells UNKNOWN, then PROCESSING with a retry time while analysing (analysis is null), then DONE', async () => {
    const engine = new FakeEngine();
    // Long enough that the status asked right after is still PROCESSING on a slow machine.
    engine.delayMs = 1500;
    const t = await createTestApp({ engine, prepareLibrary: library, env: { ANALYSIS_WAIT_MS: '50' } });
    try {
      const unknown = await graphql(t, AnalysisStatusDocument, { trackKey: MONEY });
      expect(unknown.body.data!.analysisStatus).toEqual({ trackKey: MONEY, status: 'UNKNOWN', queuePosition: null, retryAfter: null, analysis: null });

      await graphql(t, SearchDocument, { track: 'Money', artist: 'Pink Floyd' });
      const pending = await graphql(t, AnalysisDocument, { trackKey: MONEY });
      expect(pending.body).toEqual({ data: { analysis: null } });

      const status = await graphql(t, AnalysisStatusDocument, { trackKey: MONEY });
      expect(status.body.data!.analysisStatus).toMatchObject({ status: 'PROCESSING', queuePosition: 0, analysis: null });
      expect(status.body.data!.analysisStatus.retryAfter).toBeGreaterThanOrEqual(1);

      // Poll as a client would, until the job ends (the test timeout bounds it).
      let done = status;
      while (done.body.data!.analysisStatus.status === 'PROCESSING') {
        await new Promise((r) => setTimeout(r, 50));
        done = await graphql(t, AnalysisStatusDocument, { trackKey: MONEY });
      }
      expect(done.body.data!.analysisStatus).toMatchObject({ status: 'DONE', queuePosition: null, retryAfter: null, analysis: { trackKey: MONEY } });
      expect(engine.analyseCalls).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('names an uppercase key in lowercase, unknown or stored', async () => {
    const t = await createTestApp({ engine: new FakeEngine() });
    try {
      const unknown = await graphql(t, AnalysisStatusDocument, { trackKey: MONEY.toUpperCase() });
      expect(unknown.body.data!.analysisStatus).toMatchObject({ trackKey: MONEY, status: 'UNKNOWN' });
      await t.container.store.save(storedAnalysis('Pink Floyd', 'Money'));
      const done = await graphql(t, AnalysisStatusDocument, { trackKey: MONEY.toUpperCase() });
      expect(done.body.data!.analysisStatus).toMatchObject({ trackKey: MONEY, status: 'DONE', analysis: { trackKey: MONEY } });
    } finally {
      await t.close();
    }
  });

  it('when the key is malformed, then INVALID_ARGUMENT', async () => {
    const t = await createTestApp({ engine: new FakeEngine() });
    try {
      expect(onlyError(await graphql(t, AnalysisStatusDocument, { trackKey: 'xyz' })).code).toBe('INVALID_ARGUMENT');
    } finally {
      await t.close();
    }
  });
});
