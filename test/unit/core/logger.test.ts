import { EventEmitter } from 'node:events';
import type { KeyvStoreAdapter } from 'keyv';
import { REPEATED_WARNING_INTERVAL_MS, ThrottledWarning } from '../../../src/core/logger';
import { BestEffortCache } from '../../../src/search/keyv-store';

/** A Keyv store whose every call fails, as an unreachable Redis does. */
class BrokenStore extends EventEmitter {
  opts = {};
  namespace?: string;
  async get(): Promise<never> {
    throw new Error('connection refused');
  }
  async set(): Promise<never> {
    throw new Error('connection refused');
  }
  async delete(): Promise<never> {
    throw new Error('connection refused');
  }
  async clear(): Promise<never> {
    throw new Error('connection refused');
  }
}

function capture() {
  const lines: { fields: Record<string, unknown>; msg: string | undefined }[] = [];
  return { lines, logger: { warn: (fields: object, msg?: string) => void lines.push({ fields: fields as Record<string, unknown>, msg }) } };
}

describe('ThrottledWarning', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('writes the first warning, holds back the rest of the interval, then writes one counting them', () => {
    const { lines, logger } = capture();
    const warning = new ThrottledWarning(logger);
    for (let i = 0; i < 5; i++) warning.warn({ attempt: i }, 'Redis unreachable');
    expect(lines).toEqual([{ fields: { attempt: 0, suppressed: 0 }, msg: 'Redis unreachable' }]);

    jest.advanceTimersByTime(REPEATED_WARNING_INTERVAL_MS - 1);
    warning.warn({ attempt: 5 }, 'Redis unreachable');
    expect(lines).toHaveLength(1);

    jest.advanceTimersByTime(1);
    warning.warn({ attempt: 6 }, 'still unreachable');
    expect(lines[1]).toEqual({ fields: { attempt: 6, suppressed: 5 }, msg: 'still unreachable' });
  });

  it('keeps an interval of its own per instance', () => {
    const { lines, logger } = capture();
    const a = new ThrottledWarning(logger);
    const b = new ThrottledWarning(logger, 1000);
    a.warn({}, 'a');
    b.warn({}, 'b');
    jest.advanceTimersByTime(1000);
    a.warn({}, 'a');
    b.warn({}, 'b');
    expect(lines.map((l) => l.msg)).toEqual(['a', 'b', 'b']);
  });
});

describe('a failing cache is logged once per interval', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('each failed write reaches the log at most once per interval, with what it held back', async () => {
    const { lines, logger } = capture();
    const cache = new BestEffortCache<string>(new BrokenStore() as unknown as KeyvStoreAdapter, 'meta', 60_000, logger);
    for (let i = 0; i < 4; i++) await cache.set(`k${i}`, 'v');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.fields).toMatchObject({ namespace: 'meta', suppressed: 0 });

    jest.advanceTimersByTime(REPEATED_WARNING_INTERVAL_MS);
    await cache.set('k', 'v');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.fields).toMatchObject({ namespace: 'meta', suppressed: 3 });
  });
});
