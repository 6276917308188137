import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { composeMiddleware } from '../../../src/http/middleware.compose';

const req = {} as Request;
const res = {} as Response;

/** Runs a composed stack once; resolves with what reached the error handler and whether `done` was called, and how. */
function run(stack: RequestHandler[]): Promise<{ order: string[]; error?: unknown; done?: unknown[] }> {
  return new Promise((resolve) => {
    const order: string[] = [];
    const outcome: { order: string[]; error?: unknown; done?: unknown[] } = { order };
    const onError: ErrorRequestHandler = (error) => {
      outcome.error = error;
      resolve(outcome);
    };
    const wrapped = stack.map((h, i): RequestHandler => (rq, rs, next) => {
      order.push(`m${i}`);
      return h(rq, rs, next);
    });
    composeMiddleware(wrapped, onError)(req, res, (...args: unknown[]) => {
      outcome.done = args;
      resolve(outcome);
    });
  });
}

describe('composeMiddleware', () => {
  const pass: RequestHandler = (_rq, _rs, next) => next();

  it('runs the middleware in order and calls done when each passed the request on', async () => {
    expect(await run([pass, pass, pass])).toEqual({ order: ['m0', 'm1', 'm2'], done: [] });
  });

  it('stops where a middleware answers (does not call next)', async () => {
    const answered = run([pass, () => undefined, pass]);
    const raced = await Promise.race([answered, new Promise((r) => setTimeout(() => r('unfinished'), 20))]);
    expect(raced).toBe('unfinished');
  });

  it('passes an error given to next, a thrown one and a rejected promise to the error handler, skipping the rest', async () => {
    const given = new Error('given');
    expect(await run([pass, (_rq, _rs, next) => next(given), pass])).toEqual({ order: ['m0', 'm1'], error: given });
    const thrown = new Error('thrown');
    expect(
      await run([
        () => {
          throw thrown;
        },
        pass,
      ]),
    ).toEqual({ order: ['m0'], error: thrown });
    const rejected = new Error('rejected');
    expect(await run([pass, () => Promise.reject(rejected), pass])).toEqual({ order: ['m0', 'm1'], error: rejected });
  });
});
