import fc from 'fast-check';
import { pino } from 'pino';
import request from 'supertest';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { documents } from '../../../measure/http/graphql-documents';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** Codes a client may see for a document it got wrong. */
const CLIENT_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST', 'OPERATION_RESOLUTION_FAILURE', 'INVALID_ARGUMENT']);

describe('GraphQL over HTTP, on generated documents (fan-out, cycles, aliases, directive spam, introspection, operations and their names)', () => {
  let t: TestApp;
  const logged: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    t = await createTestApp({ engine: new FakeEngine(), logger });
  });
  afterAll(() => t.close());

  it('answers each one 200 with its data, or 400 with a GraphQL error code, never 5xx, and logs no error for any', async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(documents, async ({ query, operationName }) => {
        const res = await request(t.app).post('/graphql').set(t.auth).send({ query, ...(operationName ? { operationName } : {}) });
        statuses.push(res.status);
        expect([200, 400]).toContain(res.status);
        for (const error of res.body.errors ?? []) expect(error.extensions?.code).not.toBe('INTERNAL');
        if (res.status === 200) expect(res.body.data).toEqual(expect.any(Object));
        else {
          expect(res.body.data).toBeUndefined();
          for (const error of res.body.errors) expect(CLIENT_CODES).toContain(error.extensions?.code);
        }
      }),
      { numRuns: 300 },
    );
    // The documents reach execution often enough for its answers to count.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(20);
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
  });
});
