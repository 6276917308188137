import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { z } from 'zod';
import { trackKey } from '../../../src/core/track-key';
import type { Timeline } from '../../../src/core/types';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { analysisOf } from './browse.suite';

const TIMELINE: Timeline = {
  beats: [{ start: 1, duration: 0.5, confidence: 0.9 }],
  bars: [{ start: 1, duration: 2, confidence: 0.6 }],
  sections: [
    { start: 0, duration: 12, confidence: 1, loudness: -10, tempo: 118, tempoConfidence: 0.7, key: 2, keyConfidence: 0.5, mode: 1, modeConfidence: 0.4 },
  ],
};

async function library(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'Pink Floyd - Money.mp3'), 'bytes of money');
  await writeFile(path.join(dir, 'Pink Floyd - Cymbaline.mp3'), 'bytes of cymbaline');
}

describe('REST batch and timeline, and the OpenAPI document checked against real responses', () => {
  let t: TestApp;
  let engine: FakeEngine;
  const stored = Array.from({ length: 5 }, (_, i) => analysisOf('Batch Band', `Song ${i}`, { timeline: TIMELINE }, i + 1));

  beforeAll(async () => {
    engine = new FakeEngine();
    t = await createTestApp({ engine, prepareLibrary: library, env: { ANALYSIS_WAIT_MS: '0' } });
    for (const a of stored) await t.container.store.save(a);
  });
  afterAll(() => t.close());

  const get = (url: string) => request(t.app).get(url).set(t.auth);

  describe('GET /api/audio/analyses?keys=…', () => {
    it('answers positionally, null where a key has no stored analysis, in one store read', async () => {
      const unknown = trackKey('Nobody', 'Nothing');
      const keys = [stored[2]!.trackKey, unknown, stored[0]!.trackKey.toUpperCase(), stored[2]!.trackKey];
      const getMany = jest.spyOn(t.container.store, 'getMany');
      const getOne = jest.spyOn(t.container.store, 'get');
      try {
        const res = await get(`/api/audio/analyses?keys=${keys.join(',')}`).expect(200);
        expect(res.body.success).toBe(true);
        expect(res.body.data.map((a: { trackName: string } | null) => a?.trackName ?? null)).toEqual(['Song 2', null, 'Song 0', 'Song 2']);
        expect(getMany).toHaveBeenCalledTimes(1);
        expect(getOne).not.toHaveBeenCalled();
      } finally {
        getMany.mockRestore();
        getOne.mockRestore();
      }
      expect(engine.analyseCalls).toBe(0);
      // Each item is the single read's data, byte for byte (the batch joins kept texts), twice.
      const single = async (key: string): Promise<unknown> => ((await get(`/api/audio/analysis/${key}`).expect(200)).body as { data: unknown }).data;
      const expected = JSON.stringify({ success: true, data: [await single(stored[2]!.trackKey), null, await single(stored[0]!.trackKey), await single(stored[2]!.trackKey)] });
      for (let i = 0; i < 2; i++) {
        const res = await get(`/api/audio/analyses?keys=${keys.join(',')}`).expect(200);
        expect(res.text).toBe(expected);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      }
    });

    it('takes 100 keys in one read and refuses 101', async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => trackKey('Many', String(i)));
      const getMany = jest.spyOn(t.container.store, 'getMany');
      try {
        const res = await get(`/api/audio/analyses?keys=${hundred.join(',')}`).expect(200);
        expect(res.body.data).toHaveLength(100);
        expect(getMany).toHaveBeenCalledTimes(1);
      } finally {
        getMany.mockRestore();
      }
      const refused = await get(`/api/audio/analyses?keys=${[...hundred, stored[0]!.trackKey].join(',')}`).expect(400);
      expect(refused.body.error).toEqual({ code: 'INVALID_ARGUMENT', message: 'at most 100 track keys per request' });
    });

    it.each([
      ['', 'keys is required'],
      ['?keys=', 'keys must name at least one trackKey'],
      ['?keys=bc24aaa5a97c70ed,nothex', 'trackKey must be 16 lowercase hexadecimal characters (got "nothex")'],
      ['?keys=a&keys=b', 'keys must be a single comma-separated string'],
    ])('when the query is "%s", then 400 INVALID_ARGUMENT: %s', async (query, message) => {
      const res = await get(`/api/audio/analyses${query}`).expect(400);
      expect(res.body.error).toEqual({ code: 'INVALID_ARGUMENT', message });
    });
  });

  describe('GET /api/audio/analysis/{trackKey}/timeline', () => {
    it('answers the stored beats, bars and sections', async () => {
      const res = await get(`/api/audio/analysis/${stored[1]!.trackKey}/timeline`).expect(200);
      expect(res.body).toEqual({
        success: true,
        data: { trackKey: stored[1]!.trackKey, duration_ms: Math.round(stored[1]!.features.durationMs), ...TIMELINE },
      });
    });

    it('when the key is unknown, then 404 TRACK_NOT_FOUND as for the analysis', async () => {
      const res = await get(`/api/audio/analysis/${trackKey('Nobody', 'Nothing')}/timeline`).expect(404);
      expect(res.body.error.code).toBe('TRACK_NOT_FOUND');
    });
  });

  describe('GET /api/openapi.json', () => {
    type Doc = {
      openapi: string;
      paths: Record<string, { get: { parameters: { name: string; in: string; required: boolean }[]; responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown>; responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> };
    };
    let doc: Doc;

    beforeAll(async () => {
      // No Authorization: the description of the API is public.
      const res = await request(t.app).get('/api/openapi.json').expect(200);
      doc = res.body as Doc;
    });

    /** A schema with every `#/components/schemas/…` reference replaced by the component (the document has no cycles). */
    const inlined = (schema: unknown): unknown => {
      if (Array.isArray(schema)) return schema.map(inlined);
      if (schema === null || typeof schema !== 'object') return schema;
      const ref = (schema as { $ref?: string }).$ref;
      if (ref) return inlined(doc.components.schemas[ref.split('/').pop()!]);
      return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlined(v)]));
    };

    /** The document's schema for a path's response status, as a validator. */
    const schemaOf = (p: string, status: number): z.ZodType => {
      let response = doc.paths[p]!.get.responses[String(status)] as { $ref?: string; content?: Record<string, { schema: unknown }> };
      expect(response).toBeDefined();
      if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()!]!;
      return z.fromJSONSchema(inlined(response.content!['application/json']!.schema) as z.core.JSONSchema.JSONSchema);
    };

    const conforms = (p: string, res: request.Response): void => {
      const result = schemaOf(p, res.status).safeParse(res.body);
      expect({ path: p, status: res.status, issues: result.success ? [] : result.error.issues }).toEqual({ path: p, status: res.status, issues: [] });
    };

    it('is OpenAPI 3.1 and lists the parameters the routes parse', () => {
      expect(doc.openapi).toBe('3.1.0');
      const names = (p: string) => doc.paths[p]!.get.parameters.map((x) => `${x.in}:${x.name}${x.required ? '!' : ''}`);
      expect(names('/api/audio/search')).toEqual(['query:track!', 'query:artist', 'query:limit', 'query:offset']);
      expect(names('/api/audio/analyses')).toEqual(['query:keys', 'query:ids']);
      expect(names('/api/audio/analysis/{trackKey}/timeline')).toEqual(['path:trackKey!', 'query:artist', 'query:track', 'header:If-None-Match']);
      expect(names('/api/audio/analysis/{trackKey}')).toEqual(['path:trackKey!', 'query:artist', 'query:track', 'header:If-None-Match']);
      // A stored answer's ETag, and the 304 a client holding it gets.
      const analysis = doc.paths['/api/audio/analysis/{trackKey}']!.get as unknown as { responses: Record<string, { headers?: Record<string, unknown> }> };
      expect(analysis.responses['200']!.headers).toHaveProperty('ETag');
      expect(analysis.responses['304']!.headers).toHaveProperty('ETag');
    });

    it('describes real responses: search, analysis (200 and 202), timeline, batch and errors', async () => {
      conforms('/api/audio/search', await get('/api/audio/search?track=Money&artist=Pink+Floyd').expect(200));
      conforms('/api/audio/search', await get('/api/audio/search?track=').expect(400));
      conforms('/api/audio/search', await request(t.app).get('/api/audio/search?track=Money').expect(401));
      conforms('/api/audio/analysis/{trackKey}', await get(`/api/audio/analysis/${stored[0]!.trackKey}`).expect(200));
      conforms('/api/audio/analysis/{trackKey}', await get(`/api/audio/analysis/${trackKey('No', 'One')}`).expect(404));
      // ANALYSIS_WAIT_MS=0 and a slow engine: the first request for a searched track answers 202.
      engine.delayMs = 300;
      await get('/api/audio/search?track=Cymbaline&artist=Pink+Floyd').expect(200);
      conforms('/api/audio/analysis/{trackKey}', await get(`/api/audio/analysis/${trackKey('Pink Floyd', 'Cymbaline')}`).expect(202));
      conforms('/api/audio/analysis/{trackKey}/timeline', await get(`/api/audio/analysis/${stored[0]!.trackKey}/timeline`).expect(200));
      conforms('/api/audio/analyses', await get(`/api/audio/analyses?keys=${stored[0]!.trackKey},${trackKey('No', 'One')}`).expect(200));
      conforms('/api/audio/analyses', await get('/api/audio/analyses?keys=zz').expect(400));
    });

    it('catches a response that drifts from it', () => {
      const analysis = schemaOf('/api/audio/analyses', 200);
      expect(analysis.safeParse({ success: true, data: [null] }).success).toBe(true);
      expect(analysis.safeParse({ success: true, data: [{ trackKey: 'x' }] }).success).toBe(false);
      expect(analysis.safeParse({ success: true, data: [null], extra: 1 }).success).toBe(false);
    });
  });
});
