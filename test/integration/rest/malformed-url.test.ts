import request from 'supertest';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { captureLogs, LEVEL } from '../../helpers/log-capture';
import { createTestApp, type TestApp } from '../../helpers/test-app';

describe('URLs that are not valid percent-encoded UTF-8', () => {
  let t: TestApp;
  const log = captureLogs();
  beforeAll(async () => {
    t = await createTestApp({ engine: new FakeEngine(), logger: log.logger });
  });
  afterAll(() => t.close());
  beforeEach(() => log.lines.splice(0));

  const MALFORMED = [
    '/api/audio/analysis/%zz',
    '/api/audio/analysis/%',
    '/api/audio/analysis/%zz/timeline',
    '/api/audio/search?track=%zz',
    '/api/audio/search?track=Money&artist=%G1',
    '/api/audio/search?track=%E0%80%AF', // overlong '/'
    '/api/audio/search?track=%ED%A0%80', // a UTF-16 surrogate written as UTF-8
    '/api/audio/search?track=%C3', // a sequence cut short
    '/api/audio/search?%zz=Money&track=Money',
    '/api/audio/analyses?keys=%FF',
    '/api/audio/artwork/%zz?sig=abc',
    '/api/audio/nothing/%zz',
  ];

  it.each(MALFORMED)('with a key, %s answers 400 INVALID_ARGUMENT in the contract shape', async (url) => {
    const res = await request(t.app).get(url).set(t.auth).expect(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/percent-encod/) },
    });
  });

  it.each(MALFORMED)('without a key, %s answers 401 first', async (url) => {
    const res = await request(t.app).get(url).expect(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('answers the public OpenAPI document with a malformed query 400 without asking for a key', async () => {
    const res = await request(t.app).get('/api/openapi.json?x=%zz').expect(400);
    expect(res.body.error.code).toBe('INVALID_ARGUMENT');
  });

  it('writes no error-level line (and no stack) for them', async () => {
    for (const url of MALFORMED) {
      await request(t.app).get(url).set(t.auth);
      await request(t.app).get(url);
    }
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.lines.filter((l) => l.level >= LEVEL.error)).toEqual([]);
    expect(log.text()).not.toMatch(/"stack"/);
  });

  it('still reads valid escapes, multi-byte UTF-8 and + as a space', async () => {
    const res = await request(t.app).get('/api/audio/search?track=Hopp%C3%ADpolla&artist=Sigur+R%C3%B3s').set(t.auth).expect(200);
    expect(res.body.success).toBe(true);
    await request(t.app).get('/api/audio/analysis/bc24aaa5a97c70ed?track=Money%20Money').set(t.auth).expect((r) => expect(r.status).toBeLessThan(500));
  });
});
