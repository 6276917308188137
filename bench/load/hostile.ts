import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { fanOut } from '../../measure/http/graphql-documents';
import type { ServerProcess } from '../../measure/http/server-process';

/*
 * The hostile mix of bench:load (`--mix hostile`): many connections sending valid requests and
 * every kind of malformed one a careless client or an attacker sends, unthrottled, against one
 * embedded API process. What it checks: no answer in 5xx, every answer the status its kind
 * should get, and the process's memory back near where it started once the load stops.
 */

interface Shot {
  kind: string;
  /** The status a correct server answers. */
  expect: number;
  method: 'GET' | 'POST' | 'OPTIONS';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const GRAPHQL_ANALYSIS = (key: string): string =>
  JSON.stringify({ query: `{ analysis(trackKey: "${key}") { trackKey tempo key mode energy danceability mood { happy sad } } }` });

export function shots(apiKey: string, keys: readonly string[]): Shot[] {
  const auth = { authorization: `Bearer ${apiKey}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const k = keys[0]!;
  return [
    // Valid: what ordinary clients ask.
    { kind: 'REST analysis', expect: 200, method: 'GET', path: `/api/audio/analysis/${k}`, headers: auth },
    { kind: 'REST batch of 2', expect: 200, method: 'GET', path: `/api/audio/analyses?keys=${keys[1]},${keys[2]}`, headers: auth },
    { kind: 'REST search', expect: 200, method: 'GET', path: '/api/audio/search?track=Money&artist=Pink+Floyd', headers: auth },
    { kind: 'GraphQL analysis', expect: 200, method: 'POST', path: '/graphql', headers: json, body: GRAPHQL_ANALYSIS(k) },
    { kind: 'key in the query string (logged redacted)', expect: 200, method: 'GET', path: `/api/audio/analysis/${k}?api_key=secret-in-url`, headers: auth },
    // Malformed: each a client error.
    { kind: 'broken percent-encoding in the path', expect: 400, method: 'GET', path: '/api/audio/analysis/%zz', headers: auth },
    { kind: 'overlong UTF-8 in the query', expect: 400, method: 'GET', path: '/api/audio/search?track=%C0%AF', headers: auth },
    { kind: 'a cut UTF-8 sequence', expect: 400, method: 'GET', path: '/api/audio/search?track=%C3', headers: auth },
    { kind: 'a key that is not 16 hex', expect: 400, method: 'GET', path: '/api/audio/analysis/not-a-key', headers: auth },
    { kind: 'limit out of range', expect: 400, method: 'GET', path: '/api/audio/search?track=a&limit=100000', headers: auth },
    { kind: '101 keys in a batch', expect: 400, method: 'GET', path: `/api/audio/analyses?keys=${Array(101).fill(k).join(',')}`, headers: auth },
    { kind: 'an unknown key', expect: 404, method: 'GET', path: '/api/audio/analysis/0000000000000000', headers: auth },
    { kind: 'no Authorization', expect: 401, method: 'GET', path: `/api/audio/analysis/${k}` },
    { kind: 'a wrong key', expect: 401, method: 'GET', path: `/api/audio/analysis/${k}`, headers: { authorization: 'Bearer not-a-key-of-this-server' } },
    { kind: 'another scheme', expect: 401, method: 'GET', path: `/api/audio/analysis/${k}`, headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    { kind: 'no such route', expect: 404, method: 'GET', path: '/api/audio/nothing-here', headers: auth },
    { kind: 'a forged artwork signature and no key', expect: 401, method: 'GET', path: `/api/audio/artwork/${k}?sig=AAAAAAAAAAAAAAAAAAAAAA` },
    { kind: 'GraphQL body that is not JSON', expect: 400, method: 'POST', path: '/graphql', headers: json, body: '{"query": "{ analysis' },
    { kind: 'GraphQL fragment fan-out (10 levels)', expect: 400, method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: fanOut(10) }) },
    { kind: 'GraphQL syntax error', expect: 400, method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ analysis(trackKey: ' }) },
    { kind: 'GraphQL unknown operationName', expect: 400, method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ trackKey(artist: "a", track: "b") }', operationName: 'Nope' }) },
    { kind: 'GraphQL unknown field', expect: 400, method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ nothing }' }) },
    { kind: 'GraphQL body over the size limit', expect: 400, method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: `{ ${'a'.repeat(300_000)} }` }) },
  ];
}

export interface HostileResult {
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers by status class. */
  byClass: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  /** Shots whose answer was not the status they should get: kind → statuses seen. */
  unexpected: Map<string, Map<number, number>>;
  /** Before the load, and after each round's settling. */
  memory: { before: Memory; after: Memory[]; peakRssMb: number };
}

interface Memory {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

const MB = 2 ** 20;

/** The server's memory after a full garbage collection (it answers SIGUSR2 with a MEM line). */
function memoryOf(node: ServerProcess): Promise<Memory> {
  return new Promise((resolve, reject) => {
    const stdout = node.child.stdout!;
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /MEM (\{[^\n]*\})\n/.exec(out);
      if (!m) return;
      stdout.off('data', onData);
      const usage = JSON.parse(m[1]!) as NodeJS.MemoryUsage;
      resolve({ rssMb: usage.rss / MB, heapUsedMb: usage.heapUsed / MB, heapTotalMb: usage.heapTotal / MB, externalMb: usage.external / MB });
    };
    stdout.on('data', onData);
    if (!node.child.kill('SIGUSR2')) reject(new Error('the server process is gone'));
  });
}

/** Peak resident memory of a process so far (Linux VmHWM), MB; 0 elsewhere. */
function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** `connections` connections sending shots at random for `seconds`; answers not of their kind's status are counted in `unexpected`. */
function mixed(port: number, list: readonly Shot[], connections: number, seconds: number, unexpected: Map<string, Map<number, number>>): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (req, context) => {
          const shot = list[Math.floor(Math.random() * list.length)]!;
          // One request at a time per connection: its answer is read before the next is built.
          (context as { shot?: Shot }).shot = shot;
          return { ...req, method: shot.method, path: shot.path, headers: shot.headers ?? {}, ...(shot.body !== undefined ? { body: shot.body } : { body: undefined }) };
        },
        onResponse: (status, _body, context) => {
          const shot = (context as { shot?: Shot }).shot;
          if (!shot || status === shot.expect) return;
          const seen = unexpected.get(shot.kind) ?? new Map<number, number>();
          seen.set(status, (seen.get(status) ?? 0) + 1);
          unexpected.set(shot.kind, seen);
        },
      },
    ],
  });
}

/**
 * `rounds` rounds of the mix, each followed by `settleS` seconds of quiet and a memory reading:
 * memory that returns to a plateau round after round is a high-water mark, memory that climbs
 * with every round a leak. The figures of requests are the rounds' sums.
 */
export async function hostile(
  node: ServerProcess,
  apiKey: string,
  keys: readonly string[],
  options: { seconds: number; connections: number; settleS: number; rounds: number },
): Promise<HostileResult> {
  const { seconds, connections, settleS, rounds } = options;
  const list = shots(apiKey, keys);
  // Warm-up: every kind of request on a few connections, so that code loaded and compiled on
  // first use (error paths, GraphQL validation, caches' first entries) is in the baseline.
  await mixed(node.port, list, 10, 5, new Map());
  const before = await memoryOf(node);
  const unexpected = new Map<string, Map<number, number>>();
  const results: autocannon.Result[] = [];
  const after: Memory[] = [];
  for (let round = 0; round < rounds; round++) {
    results.push(await mixed(node.port, list, connections, seconds, unexpected));
    await new Promise((resolve) => setTimeout(resolve, settleS * 1000));
    after.push(await memoryOf(node));
  }
  const sum = (f: (r: autocannon.Result) => number): number => results.reduce((n, r) => n + f(r), 0);
  return {
    seconds: seconds * rounds,
    requests: sum((r) => r.requests.total),
    rps: sum((r) => r.requests.average) / rounds,
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    byClass: { '2xx': sum((r) => r['2xx']), '4xx': sum((r) => r['4xx']), '5xx': sum((r) => r['5xx']), other: sum((r) => r['1xx'] + r['3xx']) },
    errors: sum((r) => r.errors + r.timeouts),
    unexpected,
    memory: { before, after, peakRssMb: peakRssMb(node.child.pid!) },
  };
}
