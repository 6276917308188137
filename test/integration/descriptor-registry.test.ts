import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import type { AudioFeatures, AudioInput } from '../../src/core/types';
import { FakeEngine } from '../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * The descriptor registry drives every surface: this file's registry has one descriptor more
 * than the product's (a "brightness"), added in memory, and nothing else of the code changes.
 * The new descriptor must appear in GraphQL, REST, OpenAPI and browse, and be stored.
 */
jest.mock('../../src/core/descriptors.list', () => {
  const actual = jest.requireActual<typeof import('../../src/core/descriptors.list')>('../../src/core/descriptors.list');
  const brightness = {
    name: 'brightness',
    group: 'descriptor',
    description: 'How much of the sound lies in the upper frequencies.',
    range: { min: 0, max: 1 },
    browse: true,
    similarityWeight: 1,
    example: 0.4,
  };
  return { ...actual, DESCRIPTORS: [...actual.DESCRIPTORS, brightness] };
});

/** The fake engine's features plus a brightness derived from the same bytes (the first byte / 255). */
class BrightEngine extends FakeEngine {
  override async analyse(input: AudioInput): Promise<AudioFeatures> {
    const features = await super.analyse(input);
    const bytes = 'bytes' in input ? input.bytes : await readFile(input.path);
    return { ...features, brightness: bytes[0]! / 255 } as AudioFeatures;
  }
}

async function library(dir: string): Promise<void> {
  for (const title of ['Bright', 'Dim']) await writeFile(path.join(dir, `Registry Band - ${title}.mp3`), Buffer.from(title === 'Bright' ? [255, 1, 2] : [1, 2, 3]));
}

describe('a descriptor added to the registry reaches every surface', () => {
  let t: TestApp;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp({ engine: new BrightEngine(), prepareLibrary: library });
    for (const title of ['Bright', 'Dim']) {
      const found = await request(t.app).get(`/api/audio/search?track=${title}&artist=Registry+Band`).set(t.auth).expect(200);
      keys[title] = found.body.data[0].trackKey as string;
      await request(t.app).get(`/api/audio/analysis/${keys[title]}`).set(t.auth).expect(200);
    }
  });
  afterAll(() => t.close());

  const graphql = async (query: string) => {
    const res = await request(t.app).post('/graphql').set(t.auth).send({ query }).expect(200);
    expect(res.body.errors).toBeUndefined();
    return res.body.data as Record<string, unknown>;
  };

  it('REST: the analysis object carries it, stored with the rest', async () => {
    const res = await request(t.app).get(`/api/audio/analysis/${keys.Bright}`).set(t.auth).expect(200);
    expect(res.body.data.brightness).toBeCloseTo(1, 6);
    const stored = await t.container.store.get(keys.Dim!);
    expect((stored?.features as unknown as { brightness: number }).brightness).toBeCloseTo(1 / 255, 6);
  });

  it('GraphQL: a field of TrackAnalysis, a filter of tracks() and an order, described as the registry says', async () => {
    const data = await graphql(`{
      analysis(trackKey: "${keys.Bright}") { brightness }
      type: __type(name: "TrackAnalysis") { fields { name description } }
      filter: __type(name: "TrackFilter") { inputFields { name } }
      order: __type(name: "TrackOrderField") { enumValues { name } }
    }`);
    expect(data.analysis).toEqual({ brightness: 1 });
    const fields = (data.type as { fields: { name: string; description: string }[] }).fields;
    expect(fields.find((f) => f.name === 'brightness')?.description).toBe('How much of the sound lies in the upper frequencies.');
    expect((data.filter as { inputFields: { name: string }[] }).inputFields.map((f) => f.name)).toContain('brightness');
    expect((data.order as { enumValues: { name: string }[] }).enumValues.map((v) => v.name)).toContain('BRIGHTNESS');
  });

  it('browse: filters by a range of it and orders by it', async () => {
    const data = await graphql(`{
      bright: tracks(filter: { brightness: { min: 0.5 } }) { edges { node { trackName } } }
      ordered: tracks(orderBy: { field: BRIGHTNESS, direction: ASC }) { edges { node { trackName brightness } } }
    }`);
    expect((data.bright as { edges: { node: { trackName: string } }[] }).edges.map((e) => e.node.trackName)).toEqual(['Bright']);
    expect((data.ordered as { edges: { node: { trackName: string } }[] }).edges.map((e) => e.node.trackName)).toEqual(['Dim', 'Bright']);
  });

  it('OpenAPI: a property of TrackAnalysis with its range and description', async () => {
    const doc = (await request(t.app).get('/api/openapi.json').expect(200)).body as {
      components: { schemas: { TrackAnalysis: { properties: Record<string, unknown>; required: string[] } } };
    };
    expect(doc.components.schemas.TrackAnalysis.properties.brightness).toMatchObject({
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'How much of the sound lies in the upper frequencies.',
    });
    expect(doc.components.schemas.TrackAnalysis.required).toContain('brightness');
  });
});
