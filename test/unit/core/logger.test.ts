import { EventEmitter } from 'node:events';
import { textSink } from '../../helpers/log-capture';
import { REPEATED_WARNING_INTERVAL_MS, ThrottledWarning, createLogger } from '../../../src/core/logger';
import { BestEffortCache } from '../../../src/search/keyv-store';

/** A Keyv store whose every call fails, as an unreachable Redis does. */
class BrokenStore extends EventEmitter {
  opts = {};
  namespace?: string;
  get(): Promise<never> {
    return Promise.reject(new Error('connection refused'));
  }
  set(): Promise<never> {
    return Promise.reject(new Error('connection refused'));
  }
  delete(): Promise<never> {
    return Promise.reject(new Error('connection refused'));
  }
  clear(): Promise<never> {
    return Promise.reject(new Error('connection refused'));
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
    const cache = new BestEffortCache<string>(new BrokenStore(), 'meta', 60_000, logger);
    for (let i = 0; i < 4; i++) await cache.set(`k${i}`, 'v');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.fields).toMatchObject({ namespace: 'meta', suppressed: 0 });

    jest.advanceTimersByTime(REPEATED_WARNING_INTERVAL_MS);
    await cache.set('k', 'v');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.fields).toMatchObject({ namespace: 'meta', suppressed: 3 });
  });
});

describe('createLogger', () => {

  it('when the output is a terminal, then lines are readable: time, level, message and fields, no JSON object per line', () => {
    const out = textSink();
    const logger = createLogger({ level: 'info', format: 'auto', isTTY: true, stream: out.stream });
    logger.info({ url: 'http://127.0.0.1:4000' }, 'trackgraph listening');
    // eslint-disable-next-line no-control-regex -- colour escapes are what it strips
    const line = out.text().replace(/\u001b\[[0-9;]*m/g, '');
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: trackgraph listening {"url":"http:\/\/127\.0\.0\.1:4000"}\n$/);
    expect(line).not.toMatch(/"level"|"pid"|"hostname"/);
  });

  it('when the output is not a terminal, then each line is one JSON object, as collectors read them', () => {
    const out = textSink();
    const logger = createLogger({ level: 'info', format: 'auto', isTTY: false, stream: out.stream });
    logger.info({ port: 4000 }, 'trackgraph listening');
    logger.debug({}, 'below the level');
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, port: 4000, msg: 'trackgraph listening' });
  });

  it('when LOG_FORMAT says so, then it wins over the terminal test', () => {
    const json = textSink();
    createLogger({ level: 'info', format: 'json', isTTY: true, stream: json.stream }).info({}, 'x');
    expect(JSON.parse(json.text())).toMatchObject({ msg: 'x' });
    const pretty = textSink();
    createLogger({ level: 'info', format: 'pretty', isTTY: false, stream: pretty.stream }).warn({}, 'y');
    expect(pretty.text()).toMatch(/^\[[\d:.]+\] WARN: y\n$/);
  });
});
