import request from 'supertest';
import type { StoredAnalysis } from '../../../src/core/types';
import { GENRE_SEEDS } from '../../../src/core/tags';
import { analysisOf, tagsOf } from '../browse/browse.suite';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { onlyError, post } from '../graphql/graphql.helpers';

describe("GET /v1/recommendations (Spotify's shape)", () => {
  let t: TestApp;
  const all: StoredAnalysis[] = [];
  const seed = analysisOf('Seed Band', 'Seed', { tempo: 120, key: 0, mode: 1, energy: 0.8, danceability: 0.7, valence: 0.6 }, 1);

  beforeAll(async () => {
    t = await createTestApp();
    all.push(seed);
    for (let i = 0; i < 60; i++) all.push(analysisOf(`Artist ${i}`, `Song ${i}`, {}, i + 2));
    // Near twins of the seed, one of them faster and one in another key.
    all.push(analysisOf('Twin', 'Same', { ...seed.features, tempo: 121, energy: 0.79, valence: 0.61 }, 100));
    all.push(analysisOf('Twin', 'Faster', { ...seed.features, tempo: 150 }, 101));
    all.push(analysisOf('Twin', 'Far Key', { ...seed.features, key: 6 }, 102));
    for (const a of all) await t.container.store.save(a);
  });
  afterAll(() => t.close());

  const get = (query: string) => request(t.app).get(`/v1/recommendations?${query}`).set(t.auth);

  it('ranks by distance to the seeds, excludes the seeds, and answers Spotify’s {tracks, seeds}', async () => {
    const res = await get(`seed_tracks=${seed.trackKey}&limit=5`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['seeds', 'tracks']);
    const tracks = res.body.tracks as { id: string; name: string; artists: { name: string }[]; href: string; uri: string; type: string }[];
    expect(tracks).toHaveLength(5);
    expect(tracks.map((x) => x.id)).not.toContain(seed.trackKey);
    expect(tracks[0]).toEqual({
      id: all.find((a) => a.trackName === 'Same')!.trackKey,
      name: 'Same',
      artists: [{ name: 'Twin', type: 'artist' }],
      duration_ms: expect.any(Number),
      href: expect.stringMatching(/^http:\/\/trackgraph\.test\/api\/audio\/analysis\/[0-9a-f]{16}$/),
      uri: expect.stringMatching(/^trackgraph:track:[0-9a-f]{16}$/),
      type: 'track',
    });
    expect(res.body.seeds).toEqual([
      {
        id: seed.trackKey,
        type: 'TRACK',
        href: `http://trackgraph.test/api/audio/analysis/${seed.trackKey}`,
        initialPoolSize: expect.any(Number),
        afterFilteringSize: expect.any(Number),
        afterRelinkingSize: expect.any(Number),
      },
    ]);
    expect(res.body.seeds[0].afterFilteringSize).toBeLessThanOrEqual(res.body.seeds[0].initialPoolSize);
  });

  it('a target overrides the seeds’ value: target_tempo=150 puts the faster twin first; target_key another key’s twin', async () => {
    expect((await get(`seed_tracks=${seed.trackKey}&limit=3`).expect(200)).body.tracks.map((x: { name: string }) => x.name)).toEqual(['Same', 'Faster', 'Far Key']);
    expect((await get(`seed_tracks=${seed.trackKey}&target_tempo=150&limit=3`).expect(200)).body.tracks[0].name).toBe('Faster');
    expect((await get(`seed_tracks=${seed.trackKey}&target_key=6&limit=3`).expect(200)).body.tracks[0].name).toBe('Far Key');
  });

  it('min_ and max_ are range filters: every track answered is within them', async () => {
    const res = await get('min_energy=0.3&max_energy=0.6&min_tempo=80&max_tempo=140&mode=1&limit=100').expect(200);
    const byKey = new Map(all.map((a) => [a.trackKey, a]));
    const found = (res.body.tracks as { id: string }[]).map((x) => byKey.get(x.id)!);
    expect(found.length).toBeGreaterThan(0);
    for (const a of found) {
      expect(a.features.energy).toBeGreaterThanOrEqual(0.3);
      expect(a.features.energy).toBeLessThanOrEqual(0.6);
      expect(a.features.tempo).toBeGreaterThanOrEqual(80);
      expect(a.features.tempo).toBeLessThanOrEqual(140);
    }
    const expected = all.filter((a) => a.features.energy >= 0.3 && a.features.energy <= 0.6 && a.features.tempo >= 80 && a.features.tempo <= 140);
    expect(found).toHaveLength(expected.length);
    expect(res.body.seeds).toEqual([]);
  });

  it('key, mode and time signature bounds select those values; targets alone rank every analysis', async () => {
    const minor = await get('min_mode=0&max_mode=0&min_time_signature=3&max_time_signature=3&target_valence=0.1&limit=100').expect(200);
    const byKey = new Map(all.map((a) => [a.trackKey, a]));
    for (const x of minor.body.tracks as { id: string }[]) {
      expect(byKey.get(x.id)!.features.mode).toBe(0);
      expect(byKey.get(x.id)!.features.timeSignature).toBe(3);
    }
    const valences = (minor.body.tracks as { id: string }[]).map((x) => byKey.get(x.id)!.features.valence);
    expect(valences).toEqual([...valences].sort((a, b) => Math.abs(a - 0.1) - Math.abs(b - 0.1)));
    const inC = await get('min_key=0&max_key=0&target_energy=0.5&limit=100').expect(200);
    for (const x of inC.body.tracks as { id: string }[]) expect(byKey.get(x.id)!.features.key).toBe(0);
  });

  it.each([
    ['limit=0&target_energy=0.5', /limit must be a whole number from 1 to 100/],
    ['limit=101&target_energy=0.5', /limit must be a whole number from 1 to 100/],
    ['target_wobble=0.5', /target_wobble: wobble is not a tunable attribute/],
    ['min_energy=0.8&max_energy=0.2', /min_energy \(0.8\) is above max_energy \(0.2\)/],
    ['target_energy=lots', /target_energy must be a number/],
    ['seed_tracks=a,b,c,d,e,f', /at most 5 seed tracks/],
    ['seed_tracks=nope', /trackKey must be 16/],
    ['limit=5', /at least one seed \(seed_tracks, seed_genres\)/],
    ['seed_genres=polka', /seed genre "polka" is not one of the genre seeds/],
    ['seed_genres=80s', /seed genre "80s" is not one of the genre seeds/],
    ['seed_genres=jazz,rock,pop,funk,soul,blues', /at most 5 seed genres/],
  ])('%s is 400 in Spotify’s error shape', async (query, message) => {
    const res = await get(query).expect(400);
    expect(res.body).toEqual({ error: { status: 400, message: expect.stringMatching(message) } });
  });

  describe('genre seeds (the auto-tagger’s tags)', () => {
    const tagged: StoredAnalysis[] = [];
    const top3 = (a: StoredAnalysis) => (a.features.tags ?? []).slice(0, 3).map((x) => x.name);
    const probabilityOf = (a: StoredAnalysis, names: string[]) => Math.max(...(a.features.tags ?? []).filter((x) => names.includes(x.name)).map((x) => x.probability));
    beforeAll(async () => {
      for (let i = 0; i < 60; i++) {
        const a = analysisOf('Tagged', `Tagged ${i}`, { tags: tagsOf(300 + i) }, 300 + i);
        tagged.push(a);
        await t.container.store.save(a);
      }
    });

    it('lists the genre seeds in Spotify’s spelling: the tagger’s tags but its eras and voices', async () => {
      const res = await request(t.app).get('/v1/recommendations/available-genre-seeds').set(t.auth).expect(200);
      expect(res.body).toEqual({ genres: GENRE_SEEDS.map((g) => g.seed) });
      expect(res.body.genres).toEqual(expect.arrayContaining(['jazz', 'hip-hop', 'r-n-b', 'indie-pop', 'heavy-metal', 'house']));
      for (const notGenre of ['80s', '00s', 'female-vocalists', 'male-vocalists', 'Hip-Hop']) expect(res.body.genres).not.toContain(notGenre);
      expect((await request(t.app).get('/v1/recommendations/available-genre-seeds').expect(401)).body.error.status).toBe(401);
    });

    it('seed_genres keeps the analyses with one of the genres among their 3 most probable tags, the most probable first', async () => {
      const res = await get('seed_genres=jazz,Hip-Hop&limit=100').expect(200);
      const byKey = new Map(tagged.map((a) => [a.trackKey, a]));
      const want = tagged
        .filter((a) => top3(a).some((n) => n === 'jazz' || n === 'Hip-Hop'))
        .sort((a, b) => probabilityOf(b, ['jazz', 'Hip-Hop']) - probabilityOf(a, ['jazz', 'Hip-Hop']) || (a.trackKey < b.trackKey ? -1 : 1));
      expect(want.length).toBeGreaterThan(2);
      expect(want.length).toBeLessThan(30);
      expect((res.body.tracks as { id: string }[]).map((x) => byKey.get(x.id)?.trackName)).toEqual(want.map((a) => a.trackName));
      expect(res.body.seeds).toEqual(
        ['jazz', 'hip-hop'].map((id) => ({ id, type: 'GENRE', href: null, initialPoolSize: want.length, afterFilteringSize: want.length, afterRelinkingSize: want.length })),
      );
    });

    it('with a seed track, the genre’s analyses nearest to it; with a min_, within it', async () => {
      const anchor = tagged.find((a) => top3(a).includes('rock'))!;
      const res = await get(`seed_tracks=${anchor.trackKey}&seed_genres=rock&limit=100`).expect(200);
      const ids = (res.body.tracks as { id: string }[]).map((x) => x.id);
      expect(ids.sort()).toEqual(tagged.filter((a) => a !== anchor && top3(a).includes('rock')).map((a) => a.trackKey).sort());
      expect(res.body.seeds.map((x: { type: string }) => x.type)).toEqual(['TRACK', 'GENRE']);
      const bounded = await get('seed_genres=rock&min_energy=0.5&limit=100').expect(200);
      const byKey = new Map(tagged.map((a) => [a.trackKey, a]));
      for (const x of bounded.body.tracks as { id: string }[]) expect(byKey.get(x.id)!.features.energy).toBeGreaterThanOrEqual(0.5);
      expect(await get(`seed_tracks=${anchor.trackKey},${seed.trackKey},${all[2]!.trackKey}&seed_genres=rock,jazz,pop`).expect(400)).toMatchObject({
        body: { error: { status: 400, message: 'at most 5 seeds, tracks and genres together' } },
      });
    });

    it('GraphQL seedGenres answers as REST does', async () => {
      const rest = await get('seed_genres=pop,r-n-b&target_energy=0.4&limit=10').expect(200);
      const res = await post<{ recommendations: { trackKey: string }[] }>(t, {
        query: 'query ($genres: [String!]) { recommendations(seedGenres: $genres, target: { energy: 0.4 }, limit: 10) { trackKey } }',
        variables: { genres: ['Pop', 'rnb'] },
      });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data!.recommendations.map((x) => x.trackKey)).toEqual((rest.body.tracks as { id: string }[]).map((x) => x.id));
      expect(rest.body.tracks.length).toBeGreaterThan(0);
    });
  });

  it('a seed with no stored analysis is 404', async () => {
    const res = await get('seed_tracks=0000000000000000').expect(404);
    expect(res.body.error).toEqual({ status: 404, message: expect.stringMatching(/no stored analysis for seed 0000000000000000/) });
  });

  it('needs a key like every route', async () => {
    expect((await request(t.app).get('/v1/recommendations?target_energy=0.5').expect(401)).body.error.status).toBe(401);
  });

  describe('GraphQL recommendations(...)', () => {
    const query = `query ($seeds: [String!], $limit: Int, $min: RecommendationTuning, $target: RecommendationTuning) {
      recommendations(seedTracks: $seeds, limit: $limit, min: $min, target: $target) { trackKey trackName tempo timeSignature energy }
    }`;

    it('answers TrackAnalysis objects in the order REST answers them', async () => {
      const rest = await get(`seed_tracks=${seed.trackKey}&target_tempo=150&min_time_signature=3&limit=4`).expect(200);
      const res = await post<{ recommendations: { trackKey: string; tempo: number }[] }>(t, {
        query,
        variables: { seeds: [seed.trackKey], limit: 4, target: { tempo: 150 }, min: { timeSignature: 3 } },
      });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data!.recommendations.map((x) => x.trackKey)).toEqual((rest.body.tracks as { id: string }[]).map((x) => x.id));
      expect(res.body.data!.recommendations[0]).toMatchObject({ trackName: 'Faster', tempo: 150 });
    });

    it('refuses what REST refuses, with the same message', async () => {
      const res = await post(t, { query, variables: { limit: 101, target: { energy: 0.5 } } });
      expect(onlyError(res)).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'limit must be a whole number from 1 to 100' });
    });
  });
});
