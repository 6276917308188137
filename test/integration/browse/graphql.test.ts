import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { trackKey } from '../../../src/core/track-key';
import type { Timeline } from '../../../src/core/types';
import { AnalysisTimelineDocument, SimilarDocument, TaggerTagsDocument, TracksCountDocument, TracksDocument } from '../../generated/graphql';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, onlyError } from '../graphql/graphql.helpers';
import { analysisOf, tagsOf } from './browse.suite';
import { TAGGER_TAG_NAMES } from '../../../src/core/tags';

const TIMELINE: Timeline = {
  beats: [
    { start: 10, duration: 0.5, confidence: 0.9 },
    { start: 10.5, duration: 0.5, confidence: 0.8 },
  ],
  bars: [{ start: 10, duration: 2, confidence: 0.7 }],
  sections: [
    { start: 0, duration: 20, confidence: 1, loudness: -9.5, tempo: 120, tempoConfidence: 0.8, key: 9, keyConfidence: 0.6, mode: 0, modeConfidence: 0.5 },
  ],
};

describe('GraphQL tracks, similar and timeline', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine() });
    for (let i = 0; i < 12; i++) {
      await t.container.store.save(analysisOf('Browse Band', `Tune ${i}`, { tempo: 80 + i * 5, mode: i % 2, energy: i / 12 }, i + 1));
    }
    await t.container.store.save(analysisOf('Timed', 'Track', { timeline: TIMELINE, loudness: -8.25 }, 99));
  });
  afterAll(() => t.close());

  it('pages through a filtered, ordered connection with cursors', async () => {
    const variables = { filter: { artist: 'browse', mode: 1, tempo: { min: 85 } }, orderBy: { field: 'TEMPO' as const, direction: 'ASC' as const }, first: 2 };
    const first = await graphql(t, TracksDocument, variables);
    expect(first.body.errors).toBeUndefined();
    const page1 = first.body.data!.tracks;
    expect(page1.edges.map((e) => e.node.tempo)).toEqual([85, 95]);
    expect(page1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: page1.edges[0]!.cursor });
    const second = await graphql(t, TracksDocument, { ...variables, after: page1.pageInfo.endCursor });
    const third = await graphql(t, TracksDocument, { ...variables, after: second.body.data!.tracks.pageInfo.endCursor });
    expect(second.body.data!.tracks.edges.map((e) => e.node.tempo)).toEqual([105, 115]);
    expect(third.body.data!.tracks.edges.map((e) => e.node.tempo)).toEqual([125, 135]);
    expect(third.body.data!.tracks.pageInfo.hasNextPage).toBe(false);
  });

  it('pages backward with last/before: the same pages as forward, hasPreviousPage and startCursor set', async () => {
    const variables = { filter: { artist: 'browse', mode: 1, tempo: { min: 85 } }, orderBy: { field: 'TEMPO' as const, direction: 'ASC' as const } };
    const last = await graphql(t, TracksDocument, { ...variables, last: 2 });
    expect(last.body.errors).toBeUndefined();
    const page3 = last.body.data!.tracks;
    expect(page3.edges.map((e) => e.node.tempo)).toEqual([125, 135]);
    expect(page3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, startCursor: page3.edges[0]!.cursor });
    const page2 = (await graphql(t, TracksDocument, { ...variables, last: 2, before: page3.pageInfo.startCursor })).body.data!.tracks;
    const page1 = (await graphql(t, TracksDocument, { ...variables, last: 2, before: page2.pageInfo.startCursor })).body.data!.tracks;
    expect(page2.edges.map((e) => e.node.tempo)).toEqual([105, 115]);
    expect(page1.edges.map((e) => e.node.tempo)).toEqual([85, 95]);
    expect(page1.pageInfo.hasPreviousPage).toBe(false);
    const both = await graphql(t, TracksDocument, { ...variables, first: 2, last: 2 });
    expect(onlyError(both)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/first and last cannot be used together/) });
  });

  it('answers a repeated document afresh: an analysis stored in between is in the next answer (never response-cached)', async () => {
    const variables = { filter: { trackName: 'fresh' }, first: 10 };
    expect((await graphql(t, TracksDocument, variables)).body.data!.tracks.edges).toEqual([]);
    await t.container.store.save(analysisOf('Browse Band', 'Fresh One', {}, 50));
    expect((await graphql(t, TracksDocument, variables)).body.data!.tracks.edges.map((e) => e.node.trackName)).toEqual(['Fresh One']);
  });

  it('matches artist text without regard to case or accents', async () => {
    await t.container.store.save(analysisOf('Björk', 'Jóga', {}, 60));
    const res = await graphql(t, TracksDocument, { filter: { artist: 'BJORK', trackName: 'joga' }, first: 5 });
    expect(res.body.data!.tracks.edges.map((e) => e.node.trackName)).toEqual(['Jóga']);
  });

  it('counts every match with totalCount', async () => {
    const res = await graphql(t, TracksCountDocument, { filter: { artist: 'Browse Band', mode: 0 } });
    expect(res.body.data!.tracks.totalCount).toBe(6);
  });

  it('similar: nearest stored tracks with their distance; unknown keys are TRACK_NOT_FOUND', async () => {
    const res = await graphql(t, SimilarDocument, { trackKey: trackKey('Browse Band', 'Tune 4').toUpperCase(), first: 3 });
    expect(res.body.errors).toBeUndefined();
    const similar = res.body.data!.similar;
    expect(similar).toHaveLength(3);
    expect(similar.map((s) => s.track.trackKey)).not.toContain(trackKey('Browse Band', 'Tune 4'));
    expect(similar.map((s) => s.distance)).toEqual([...similar.map((s) => s.distance)].sort((a, b) => a - b));
    const missing = await graphql(t, SimilarDocument, { trackKey: trackKey('No', 'Such') });
    expect(onlyError(missing)).toMatchObject({ code: 'TRACK_NOT_FOUND', path: ['similar'] });
  });

  it('refuses a bad filter or cursor with INVALID_ARGUMENT', async () => {
    const bad = await graphql(t, TracksDocument, { filter: { energy: { min: 0.9, max: 0.1 } } });
    expect(onlyError(bad)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/min \(0.9\) is above max \(0.1\)/) });
    const cursor = await graphql(t, TracksDocument, { after: 'bogus' });
    expect(onlyError(cursor).code).toBe('INVALID_ARGUMENT');
  });

  it('filters by the tagger’s tags (any case, a probability range, among the n most probable) and lists the tags it knows', async () => {
    const tagged = [0, 1, 2, 3].map((i) => analysisOf('Tag Band', `Tagged ${i}`, { tags: tagsOf(700 + i) }, 700 + i));
    for (const a of tagged) await t.container.store.save(a);
    const names = (await graphql(t, TaggerTagsDocument, {})).body.data!.taggerTags;
    expect(names).toEqual([...TAGGER_TAG_NAMES]);
    // The first analysis' most probable tag, asked in capitals: among the top 1 exactly where it leads.
    const lead = tagged[0]!.features.tags![0]!;
    const top = await graphql(t, TracksDocument, { filter: { tags: [{ name: lead.name.toUpperCase(), top: 1 }] }, first: 10 });
    expect(top.body.errors).toBeUndefined();
    expect(top.body.data!.tracks.edges.map((e) => e.node.trackName).sort()).toEqual(tagged.filter((a) => a.features.tags![0]!.name === lead.name).map((a) => a.trackName).sort());
    const p = tagged[1]!.features.tags!.find((x) => x.name === 'rock')!.probability;
    const ranged = await graphql(t, TracksDocument, { filter: { artist: 'tag band', tags: [{ name: 'rock', min: p, max: p }] }, first: 10 });
    expect(ranged.body.data!.tracks.edges.map((e) => e.node.trackName)).toEqual(
      tagged.filter((a) => a.features.tags!.some((x) => x.name === 'rock' && x.probability === p)).map((a) => a.trackName).reverse(),
    );
    // Analyses without tags (the signal method's) never match.
    const count = await graphql(t, TracksCountDocument, { filter: { tags: [{ name: 'rock' }] } });
    expect(count.body.data!.tracks.totalCount).toBe(4);
    const unknown = await graphql(t, TracksDocument, { filter: { tags: [{ name: 'polka' }] } });
    expect(onlyError(unknown)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/filter\.tags\[0\]\.name: the tagger gives no tag "polka"/) });
    const badTop = await graphql(t, TracksDocument, { filter: { tags: [{ name: 'rock', top: 51 }] } });
    expect(onlyError(badTop)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/top must be a whole number from 1 to 50/) });
  });

  it('orders by a tag’s probability (orderBy: { field: TAG, tag }), with cursors; a TAG order names its tag', async () => {
    const tagged = [0, 1, 2, 3, 4].map((i) => analysisOf('Jazz Band', `Jazzy ${i}`, { tags: tagsOf(720 + i) }, 720 + i));
    for (const a of tagged) await t.container.store.save(a);
    const jazz = (a: (typeof tagged)[number]): number => a.features.tags!.find((x) => x.name === 'jazz')!.probability;
    const want = [...tagged].sort((a, b) => jazz(a) - jazz(b)).map((a) => a.trackName);
    const orderBy = { field: 'TAG' as const, direction: 'ASC' as const, tag: 'JAZZ' };
    const first = await graphql(t, TracksDocument, { filter: { artist: 'jazz band' }, orderBy, first: 3 });
    expect(first.body.errors).toBeUndefined();
    const next = await graphql(t, TracksDocument, { filter: { artist: 'jazz band' }, orderBy, first: 3, after: first.body.data!.tracks.pageInfo.endCursor });
    expect([...first.body.data!.tracks.edges, ...next.body.data!.tracks.edges].map((e) => e.node.trackName)).toEqual(want);
    expect(next.body.data!.tracks.pageInfo.hasNextPage).toBe(false);
    const missing = await graphql(t, TracksDocument, { orderBy: { field: 'TAG' } });
    expect(onlyError(missing)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/orderBy\.field TAG needs orderBy\.tag/) });
    const misplaced = await graphql(t, TracksDocument, { orderBy: { field: 'TEMPO', tag: 'jazz' } });
    expect(onlyError(misplaced)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/orderBy\.tag is only for orderBy\.field TAG/) });
  });

  it('serves the stored timeline (beats, bars, sections), loudness and confidences on TrackAnalysis', async () => {
    const res = await graphql(t, AnalysisTimelineDocument, { trackKey: trackKey('Timed', 'Track') });
    expect(res.body.errors).toBeUndefined();
    const a = res.body.data!.analysis!;
    expect(a.timeline).toEqual(TIMELINE);
    expect(a.loudness).toBe(-8.25);
    expect(Object.keys(a.confidence).sort()).toEqual(['key', 'mode', 'tempo', 'timeSignature']);
  });

  it('a page and similar() serve each node’s segments when asked (read from analysis_segments only then)', async () => {
    const segment = (start: number) => ({ start, duration: 0.5, confidence: 0.5, loudnessStart: -20, loudnessMax: -10, loudnessMaxTime: 0.1, loudnessEnd: -25, pitches: new Array<number>(12).fill(0.5), timbre: new Array<number>(12).fill(start) });
    for (let i = 0; i < 3; i++) {
      await t.container.store.save(analysisOf('Segment Band', `Cut ${i}`, { tempo: 120 + i, timeline: { beats: [], bars: [], sections: [], segments: [segment(i), segment(i + 0.5)] } }, 300 + i));
    }
    const document = parse(`query ($first: Int) {
      tracks(filter: { artist: "segment band" }, orderBy: { field: TEMPO, direction: ASC }, first: $first) { edges { node { trackName timeline { segments { start timbre } } } } }
      similar(trackKey: "${trackKey('Segment Band', 'Cut 0')}", first: 2) { track { trackName timeline { segments { start } } } }
    }`) as TypedDocumentNode<{ tracks: { edges: { node: { trackName: string; timeline: { segments: { start: number; timbre: number[] }[] } } }[] }; similar: { track: { trackName: string; timeline: { segments: { start: number }[] } } }[] }, { first: number }>;
    const res = await graphql(t, document, { first: 3 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.tracks.edges.map((e) => [e.node.trackName, e.node.timeline.segments.map((s) => s.start)])).toEqual([
      ['Cut 0', [0, 0.5]],
      ['Cut 1', [1, 1.5]],
      ['Cut 2', [2, 2.5]],
    ]);
    expect(res.body.data!.tracks.edges[1]!.node.timeline.segments[0]!.timbre).toEqual(new Array(12).fill(1));
    for (const { track } of res.body.data!.similar) {
      expect(track.timeline.segments).toEqual(track.trackName.startsWith('Cut') ? [{ start: Number(track.trackName.slice(4)) }, { start: Number(track.trackName.slice(4)) + 0.5 }] : []);
    }
  });
});
