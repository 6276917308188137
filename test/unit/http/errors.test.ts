import express from 'express';
import request from 'supertest';
import { clientErrorHandler } from '../../../src/http/http.errors';
import { requestLogger } from '../../../src/http/request-logger';
import { captureLogs, LEVEL } from '../../helpers/log-capture';

/** An edge as REST and GraphQL build theirs: a JSON body parser, then the shared error handler. */
function edge() {
  const log = captureLogs();
  const app = express();
  app.use(requestLogger(log.logger));
  app.post('/', express.json({ limit: 100 }), (_req, res) => {
    res.json({ success: true });
  });
  app.post('/boom', () => {
    throw new Error('a bug');
  });
  app.use(clientErrorHandler({ body: (b) => b, logMessage: 'request failed' }));
  return { app, log };
}

describe('unreadable request bodies', () => {
  it.each([
    ['invalid JSON', { 'Content-Type': 'application/json' }, '{"a":', /not valid JSON/],
    ['a body over the limit', { 'Content-Type': 'application/json' }, JSON.stringify({ a: 'x'.repeat(200) }), /too large/],
    ['an unsupported charset', { 'Content-Type': 'application/json; charset=ebcdic' }, '{}', /charset/],
    ['an unsupported content encoding', { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' }, '{}', /encoding/],
    ['gzip that is not gzip', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, 'plain text', /cannot be read/],
    ['brotli that is not brotli', { 'Content-Type': 'application/json', 'Content-Encoding': 'br' }, '{"a":1}', /cannot be read/],
  ])('%s is 400 INVALID_ARGUMENT, logged as a warning', async (_case, headers, body, message) => {
    const { app, log } = edge();
    const res = await request(app).post('/').set(headers).send(body).expect(400);
    expect(res.body).toEqual({ success: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(message) } });
    expect(log.lines.filter((l) => l.level >= LEVEL.error)).toEqual([]);
  });

  it('still masks an unexpected failure as 500 INTERNAL, logged as an error', async () => {
    const { app, log } = edge();
    const res = await request(app).post('/boom').expect(500);
    expect(res.body.error).toEqual({ code: 'INTERNAL', message: 'internal error; it has been logged' });
    expect(log.lines.some((l) => l.level >= LEVEL.error)).toBe(true);
  });
});
