import { retryOnConnectionLoss } from '../../../src/db/database';

/** A call failing `failures` times with `error`, then answering 'done'; counts its calls. */
function flaky(failures: number, error: Error): { run: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    run: async () => {
      calls++;
      if (calls <= failures) throw error;
      return 'done';
    },
    calls: () => calls,
  };
}

const lost = (): Error => new Error('Connection terminated due to connection timeout');
const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });

describe('retryOnConnectionLoss: start-up work rides out a database slow to connect', () => {
  it('a lost or refused connection is tried again until the call answers', async () => {
    for (const error of [lost(), refused()]) {
      const call = flaky(2, error);
      await expect(retryOnConnectionLoss(call.run, { initialDelayMs: 1 })).resolves.toBe('done');
      expect(call.calls()).toBe(3);
    }
  });

  it('gives up after its attempts, throwing the connection error', async () => {
    const call = flaky(10, lost());
    await expect(retryOnConnectionLoss(call.run, { attempts: 3, initialDelayMs: 1 })).rejects.toThrow(/Connection terminated/);
    expect(call.calls()).toBe(3);
  });

  it('any other failure is thrown at once, untried', async () => {
    const call = flaky(1, Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }));
    await expect(retryOnConnectionLoss(call.run, { initialDelayMs: 1 })).rejects.toThrow(/duplicate key/);
    expect(call.calls()).toBe(1);
  });
});
