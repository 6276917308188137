import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { trackKey } from '../../../src/core/track-key';
import type { MetadataSource } from '../../../src/sources/source';
import { SearchDocument, SearchPageDocument, TrackKeyDocument } from '../../generated/graphql';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, onlyError } from './graphql.helpers';

const FILES: Record<string, { artist: string; title: string; picture?: boolean }> = {
  'money.mp3': { artist: 'Pink Floyd', title: 'Money', picture: true },
  'cymbaline.ogg': { artist: 'Pink Floyd', title: 'Cymbaline' },
  'halo.flac': { artist: 'Beyoncé', title: 'Halo' },
  'merry.mp3': { artist: '坂本龍一', title: 'Merry Christmas Mr. Lawrence' },
  'acdc.mp3': { artist: 'AC+DC Tribute', title: 'Plus+Sign' },
};

describe('GraphQL search', () => {
  let t: TestApp;
  const engine = new FakeEngine();

  beforeAll(async () => {
    for (const [file, tags] of Object.entries(FILES)) {
      engine.tags.set(file, {
        artist: tags.artist,
        title: tags.title,
        ...(tags.picture ? { picture: { mime: 'image/png', data: new Uint8Array([137, 80, 78, 71]) } } : {}),
      });
    }
    for (let i = 1; i <= 12; i++) engine.tags.set(`love-${i}.mp3`, { artist: `Band ${i}`, title: `Love Song ${i}` });
    t = await createTestApp({
      engine,
      prepareLibrary: async (dir) => {
        for (const file of engine.tags.keys()) await writeFile(path.join(dir, file), `audio of ${file}`);
      },
    });
  });
  afterAll(() => t.close());

  it('finds a library file by title and artist, with the key computed from what it returns', async () => {
    const res = await graphql(t, SearchDocument, { track: 'Money', artist: 'Pink Floyd' });
    expect(res.status).toBe(200);
    const first = res.body.data!.search[0]!;
    expect(first).toMatchObject({ artist: 'Pink Floyd', trackName: 'Money', trackKey: 'bc24aaa5a97c70ed' });
    expect(first.trackKey).toBe(trackKey(first.artist, first.trackName));
    expect(first.thumbnailUrl).toMatch(/\/api\/audio\/artwork\/bc24aaa5a97c70ed\?sig=/);
  });

  it('orders results by match_score, highest first, and gives the track’s placeholder as thumbnailUrl when there is no art', async () => {
    const res = await graphql(t, SearchDocument, { track: 'Cymbaline', artist: 'Pink Floyd' });
    const scores = res.body.data!.search.map((r) => r.match_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(res.body.data!.search[0]).toMatchObject({ trackName: 'Cymbaline', thumbnailUrl: t.container.artwork.url(trackKey('Pink Floyd', 'Cymbaline')) });
  });

  it('answers from this app’s own services while another app in the process runs on the same schema', async () => {
    const otherEngine = new FakeEngine();
    otherEngine.tags.set('echoes.mp3', { artist: 'Pink Floyd', title: 'Echoes' });
    const other = await createTestApp({ engine: otherEngine, prepareLibrary: (dir) => writeFile(path.join(dir, 'echoes.mp3'), 'audio of echoes') });
    try {
      const found = async (app: TestApp, track: string) => (await graphql(app, SearchDocument, { track, artist: 'Pink Floyd' })).body.data!.search.map((r) => r.trackName);
      expect(await found(other, 'Echoes')).toEqual(['Echoes']);
      expect(await found(t, 'Echoes')).not.toContain('Echoes');
      expect(await found(t, 'Money')).toContain('Money');
      expect(await found(other, 'Money')).not.toContain('Money');
    } finally {
      await other.close();
    }
  });

  it('takes names as plain strings: a + is a plus sign, not a space, and whitespace around is trimmed', async () => {
    const res = await graphql(t, SearchDocument, { track: '  Plus+Sign ', artist: 'AC+DC Tribute' });
    expect(res.body.data!.search[0]).toMatchObject({ artist: 'AC+DC Tribute', trackName: 'Plus+Sign' });
  });

  it('finds Unicode names', async () => {
    const res = await graphql(t, SearchDocument, { track: 'Merry Christmas', artist: '坂本龍一' });
    expect(res.body.data!.search[0]).toMatchObject({ artist: '坂本龍一', trackKey: trackKey('坂本龍一', 'Merry Christmas Mr. Lawrence') });
  });

  it('searchPage pages the same ranking as search, says whether more follow, and names no failed source', async () => {
    const first = await graphql(t, SearchPageDocument, { track: 'Love Song', limit: 5 });
    const second = await graphql(t, SearchPageDocument, { track: 'Love Song', limit: 5, offset: 10 });
    const all = await graphql(t, SearchDocument, { track: 'Love Song', limit: 12 });
    expect(first.body.data?.searchPage.hasMore).toBe(true);
    expect(first.body.data?.searchPage.failedSources).toEqual([]);
    expect(second.body.data?.searchPage.hasMore).toBe(false);
    const keys = (all.body.data?.search ?? []).map((r) => r.trackKey);
    expect(first.body.data?.searchPage.results.map((r) => r.trackKey)).toEqual(keys.slice(0, 5));
    expect(second.body.data?.searchPage.results.map((r) => r.trackKey)).toEqual(keys.slice(10, 12));
  });

  it('returns at most limit results, 10 when limit is absent', async () => {
    expect((await graphql(t, SearchDocument, { track: 'Love Song' })).body.data!.search).toHaveLength(10);
    expect((await graphql(t, SearchDocument, { track: 'Love Song', limit: 3 })).body.data!.search).toHaveLength(3);
  });

  it.each([
    ['limit 0', { track: 'Money', limit: 0 }, /limit must be at least 1/],
    ['limit 51', { track: 'Money', limit: 51 }, /limit must be at most 50/],
    ['an empty track', { track: '   ' }, /track must not be empty/],
    ['a track over 300 characters', { track: 'x'.repeat(301) }, /track must be at most 300 characters/],
    ['an artist over 300 characters', { track: 'Money', artist: 'y'.repeat(301) }, /artist must be at most 300 characters/],
  ])('when given %s, then INVALID_ARGUMENT', async (_case, variables, message) => {
    const res = await graphql(t, SearchDocument, variables);
    expect(res.body.data).toBeNull();
    expect(onlyError(res)).toEqual({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(message), path: ['search'] });
  });

  it('when track is missing, then GraphQL refuses the variables with BAD_USER_INPUT', async () => {
    const res = await graphql(t, SearchDocument, {} as { track: string });
    expect(res.status).toBe(400);
    expect(onlyError(res).code).toBe('BAD_USER_INPUT');
  });

  it('computes a track key by the contract formula', async () => {
    const res = await graphql(t, TrackKeyDocument, { artist: ' Pink Floyd ', track: 'Money' });
    expect(res.body.data).toEqual({ trackKey: 'bc24aaa5a97c70ed' });
    const brian = await graphql(t, TrackKeyDocument, { artist: 'Brian Adams', track: 'Forgive' });
    expect(brian.body.data).toEqual({ trackKey: '43134f5237c98ee9' });
  });

  it('refuses a track key of an empty or over-long name with INVALID_ARGUMENT', async () => {
    expect(onlyError(await graphql(t, TrackKeyDocument, { artist: '', track: 'Money' })).code).toBe('INVALID_ARGUMENT');
    expect(onlyError(await graphql(t, TrackKeyDocument, { artist: 'A', track: 'm'.repeat(301) })).code).toBe('INVALID_ARGUMENT');
  });
});

describe('GraphQL search when sources fail', () => {
  const failing = (name: string): MetadataSource => ({
    name,
    search: async () => {
      throw new Error('HTTP 500 from upstream at /internal/path');
    },
  });
  const hanging = (name: string): MetadataSource => ({ name, search: () => new Promise(() => undefined) });

  it('when every source fails, then UPSTREAM_UNAVAILABLE without the sources’ details', async () => {
    const t = await createTestApp({ engine: new FakeEngine(), sources: () => [failing('deezer')] });
    try {
      const res = await graphql(t, SearchDocument, { track: 'Money' });
      expect(onlyError(res)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', path: ['search'] });
      expect(JSON.stringify(res.body)).not.toMatch(/HTTP 500|internal\/path/);
    } finally {
      await t.close();
    }
  });

  it('when one source fails, then searchPage names it (masked) beside what the others found', async () => {
    const library: MetadataSource = { name: 'library', search: async () => [{ artist: 'Pink Floyd', trackName: 'Money', source: 'library' }] };
    const t = await createTestApp({ engine: new FakeEngine(), sources: () => [failing('deezer'), library] });
    try {
      const res = await graphql(t, SearchPageDocument, { track: 'Money' });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data?.searchPage).toEqual({
        results: [{ trackKey: trackKey('Pink Floyd', 'Money'), trackName: 'Money' }],
        hasMore: false,
        failedSources: [{ source: 'deezer', code: 'INTERNAL', message: 'source deezer failed unexpectedly' }],
      });
      expect(JSON.stringify(res.body)).not.toMatch(/HTTP 500|internal\/path/);
    } finally {
      await t.close();
    }
  });

  it('when every source times out, then UPSTREAM_TIMEOUT', async () => {
    const t = await createTestApp({ engine: new FakeEngine(), sources: () => [hanging('deezer')], env: { SOURCE_TIMEOUT_MS: '100' } });
    try {
      expect(onlyError(await graphql(t, SearchDocument, { track: 'Money' })).code).toBe('UPSTREAM_TIMEOUT');
    } finally {
      await t.close();
    }
  });
});
