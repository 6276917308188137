import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import request from 'supertest';
import ts from 'typescript';
import type { paths } from '../../generated/openapi';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, TEST_API_KEY, type TestApp } from '../../helpers/test-app';

const ROOT = path.resolve(__dirname, '../../..');

/** Pink Floyd's tracks in a library of file names (the fake engine analyses anything). */
async function library(dir: string): Promise<void> {
  for (const title of ['Money', 'Time', 'Breathe', 'Us and Them', 'Brain Damage', 'Eclipse', 'Any Colour You Like']) {
    await writeFile(path.join(dir, `Pink Floyd - ${title}.mp3`), `bytes of ${title}`);
  }
  for (let i = 1; i <= 7; i++) await writeFile(path.join(dir, `Paging Band - Song ${i}.mp3`), `bytes of song ${i}`);
}

interface Doc {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[] }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

describe('the OpenAPI document: named schemas, stated limits, a typed client that compiles and runs', () => {
  let t: TestApp;
  let doc: Doc;

  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), prepareLibrary: library });
    doc = (await request(t.app).get('/api/openapi.json').expect(200)).body as Doc;
  });
  afterAll(() => t.close());

  const param = (p: string, name: string) => doc.paths[p]!.get!.parameters!.find((x) => x.name === name)!;

  it('names the shapes clients share as components, each with a description', () => {
    for (const name of ['TrackAnalysis', 'SearchResult', 'Mood', 'Timeline', 'TimeInterval', 'Section', 'Error', 'AnalysisPending', 'TrackKey']) {
      expect({ name, described: typeof doc.components.schemas[name]?.description }).toEqual({ name, described: 'string' });
    }
    // The analysis shape is written once (TrackAnalysis) and referred to by every answer holding it;
    // Spotify's audio-features object (/v1) is the one other shape with the field, also written once.
    const text = JSON.stringify(doc);
    expect(text.match(/"danceability":\{/g)).toHaveLength(2);
    expect(JSON.stringify(doc.components.schemas.SpotifyAudioFeatures)).toContain('"danceability":{');
    expect(JSON.stringify(doc.components.schemas.AnalysisResponse)).toContain('"#/components/schemas/TrackAnalysis"');
    expect(JSON.stringify(doc.components.schemas.AnalysesResponse)).toContain('"#/components/schemas/TrackAnalysis"');
  });

  it('states the limits the routes enforce', () => {
    expect(param('/api/audio/search', 'track')).toMatchObject({ required: true, schema: { maxLength: 300 } });
    expect(param('/api/audio/search', 'limit').schema).toMatchObject({ minimum: 1, maximum: 50, default: 10 });
    expect(param('/api/audio/search', 'offset').schema).toMatchObject({ minimum: 0, maximum: 50, default: 0 });
    expect(param('/api/audio/analysis/{trackKey}', 'trackKey').schema).toMatchObject({ pattern: '^[0-9a-fA-F]{16}$' });
    expect(doc.components.schemas.TrackKey).toMatchObject({ pattern: '^[0-9a-f]{16}$' });
  });

  /** scripts/openapi.mts (ESM, as Redocly and openapi-typescript are) with these arguments. */
  const script = (...args: string[]) => promisify(execFile)(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/openapi.mts', ...args], { cwd: ROOT });

  it('is the document the script writes and lints', async () => {
    const { stdout } = await script('--server', 'http://trackgraph.test');
    expect(JSON.parse(stdout)).toEqual(doc);
  });

  it('passes Redocly’s recommended rules without an error', async () => {
    expect((await script('--lint')).stdout).toMatch(/openapi\.json: 0 errors/);
  });

  // A TypeScript program compiled in process beside a tsx child: 25 s on a quiet 2-core machine.
  it('gives openapi-typescript types under which the documented openapi-fetch client compiles, and that client works', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-client-'));
    try {
      await script('--types', path.join(dir, 'trackgraph.d.ts'));
      const types = await readFile(path.join(dir, 'trackgraph.d.ts'), 'utf8');
      // The types this test uses below are these (npm run codegen writes them).
      expect(await readFile(path.join(ROOT, 'test/generated/openapi.ts'), 'utf8')).toBe(types);
      // The client exactly as docs/API.md shows it.
      const apiDoc = await readFile(path.join(ROOT, 'docs/API.md'), 'utf8');
      const snippet = /<!-- typed-client[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(apiDoc)?.[1];
      expect(snippet).toBeDefined();
      const clientFile = path.join(dir, 'client.ts');
      await writeFile(clientFile, snippet!);
      const program = ts.createProgram([clientFile], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: true,
        types: [],
        typeRoots: [],
        baseUrl: ROOT,
        paths: { 'openapi-fetch': [path.join(ROOT, 'node_modules/openapi-fetch')] },
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);

      // The same calls, typed by the same document, against the running server.
      const { port } = await t.listen();
      const client = createClient<paths>({
        baseUrl: `http://127.0.0.1:${port}`,
        headers: { Authorization: `Bearer ${TEST_API_KEY}` },
      });
      const found = await client.GET('/api/audio/search', { params: { query: { track: 'Money', artist: 'Pink Floyd', limit: 1 } } });
      expect(found.data?.data[0]?.trackName).toBe('Money');
      const analysis = await client.GET('/api/audio/analysis/{trackKey}', { params: { path: { trackKey: found.data!.data[0]!.trackKey } } });
      expect(analysis.response.status).toBe(200);
      const body = analysis.data;
      expect(body && "data" in body ? body.data?.trackKey : undefined).toBe(found.data!.data[0]!.trackKey);
      const refused = await client.GET('/api/audio/search', { params: { query: { track: 'x'.repeat(301) } } });
      expect(refused.error?.error.code).toBe('INVALID_ARGUMENT');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('REST paging and Spotify-style batch names', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), prepareLibrary: library });
  });
  afterAll(() => t.close());
  const get = (url: string) => request(t.app).get(url).set(t.auth);
  const titles = (res: request.Response) => (res.body.data as { trackName: string }[]).map((r) => r.trackName);

  it('pages search results with offset, saying in the Link header whether more follow', async () => {
    const all = await get('/api/audio/search?track=Song&artist=Paging+Band&limit=50').expect(200);
    expect(all.headers.link).toBeUndefined();
    const ranking = titles(all);
    expect(ranking.length).toBe(7);

    const first = await get('/api/audio/search?track=Song&artist=Paging+Band&limit=3').expect(200);
    expect(titles(first)).toEqual(ranking.slice(0, 3));
    expect(first.headers.link).toBe('</api/audio/search?track=Song&artist=Paging+Band&limit=3&offset=3>; rel="next"');

    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)![1]!;
    const second = await get(next).expect(200);
    expect(titles(second)).toEqual(ranking.slice(3, 6));
    expect(second.headers.link).toContain('offset=6>; rel="next"');
    expect(second.headers.link).toContain('offset=0>; rel="prev"');

    const last = await get('/api/audio/search?track=Song&artist=Paging+Band&limit=3&offset=6').expect(200);
    expect(titles(last)).toEqual(ranking.slice(6));
    expect(last.headers.link).toBe('</api/audio/search?track=Song&artist=Paging+Band&limit=3&offset=3>; rel="prev"');
  });

  it('refuses an offset out of range as INVALID_ARGUMENT', async () => {
    for (const offset of ['-1', '51', '1.5', 'x']) {
      const res = await get(`/api/audio/search?track=Money&offset=${offset}`).expect(400);
      expect(res.body.error.code).toBe('INVALID_ARGUMENT');
      expect(res.body.error.message).toMatch(/offset/);
    }
  });

  it('reads a batch named ids as it reads keys, and refuses both at once', async () => {
    const found = await get('/api/audio/search?track=Money&artist=Pink+Floyd').expect(200);
    const key = found.body.data[0].trackKey as string;
    await get(`/api/audio/analysis/${key}`).expect(200);
    const byIds = await get(`/api/audio/analyses?ids=${key},0000000000000000`).expect(200);
    const byKeys = await get(`/api/audio/analyses?keys=${key},0000000000000000`).expect(200);
    expect(byIds.body).toEqual(byKeys.body);
    expect(byIds.body.data[0].trackName).toBe('Money');
    expect((await get(`/api/audio/analyses?ids=${key}&keys=${key}`).expect(400)).body.error.message).toMatch(/keys or ids/);
    expect((await get('/api/audio/analyses').expect(400)).body.error.message).toBe('keys is required');
  });
});
