import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { syntheticAnalysis } from '../measure/store/synthetic-analyses';
import { hostile, shots } from './load/hostile';
import { scaledEnvironment } from './lib/scaled-env';
import { startServerProcess, stopServerProcesses, type ServerProcess } from '../measure/http/server-process';

/**
 * Load on stored analyses (GET /api/audio/analysis/:key over LOAD_SEED keys, picked at random),
 * embedded and scaled setups side by side in one run:
 *   embedded: one API process, SQLite store and cache, in-memory rate limits;
 *   scaled:   two API processes on Postgres (store) and Redis (cache, queue, shared rate limits);
 *             the load is split evenly between them (one autocannon per node, run together;
 *             req/s and errors are summed, p99 is the worse of the two).
 * For each: the unthrottled maximum, then the highest fixed rate (autocannon overallRate)
 * whose 10 s probe keeps p99 < 100 ms with no errors and no non-2xx, confirmed over --duration s.
 *
 *   npm run bench:load -- [--duration 60] [--probe 10] [--connections 10] [--max-connections 50] [--only embedded|scaled]
 *   npm run bench:load -- --mix hostile [--duration 60] [--connections 200] [--settle 15] [--rounds 3]
 *
 * `--mix hostile` (bench/load/hostile.ts) runs one embedded process under many connections
 * sending valid and malformed requests at random, unthrottled, and reports the answers by status
 * class, any answer that is not the status its kind should get, and memory before the load and
 * --settle seconds after it (both after a full garbage collection), with the peak resident size.
 *
 * Fixed-rate runs use few connections (default 10): with many, autocannon sends each second's
 * requests in bursts, and even a bare Express route then shows a p99 of hundreds of ms at 200 req/s.
 *
 * Needs Postgres (127.0.0.1:5432/test, trust auth; DATABASE_URL to override) and Redis
 * (127.0.0.1:6379; REDIS_URL) for the scaled setup; it uses a schema and key prefix of its
 * own and removes them afterwards.
 */
const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const duration = Number(opt('duration', '60'));
const probeSeconds = Number(opt('probe', '10'));
const connections = Number(opt('connections', '10'));
const maxConnections = Number(opt('max-connections', '50'));
const only = opt('only', '');
const mix = opt('mix', 'stored');
const KEY = 'load-key-0123456789abcdef';
const SEED = 1000;
const P99_LIMIT_MS = 100;
const KEYS = Array.from({ length: SEED }, (_, i) => syntheticAnalysis(i).trackKey);
const DATABASE_URL = process.env.DATABASE_URL ?? `postgres://${os.userInfo().username}@127.0.0.1:5432/test`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

type Node = ServerProcess;

function startNode(env: Record<string, string>): Promise<Node> {
  return startServerProcess('load server', path.join(__dirname, 'load', 'server.ts'), {
    env: { API_KEYS: KEY, RATE_LIMIT: '100000000', LOAD_SEED: String(SEED), ...env },
  });
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  fiveXx: number;
}

function run(port: number, seconds: number, conns: number, rate?: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: conns,
    duration: seconds,
    headers: { authorization: `Bearer ${KEY}` },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/audio/analysis/${KEYS[Math.floor(Math.random() * KEYS.length)]}` }) }],
    ...(rate ? { overallRate: rate } : {}),
  });
}

/** The same load spread evenly over the nodes, run together. */
async function load(nodes: Node[], seconds: number, rate?: number): Promise<Result> {
  const share = Math.max(1, Math.floor((rate ? connections : maxConnections) / nodes.length));
  const results = await Promise.all(nodes.map((n) => run(n.port, seconds, share, rate ? rate / nodes.length : undefined)));
  return {
    rps: results.reduce((s, r) => s + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((s, r) => s + r.errors + r.timeouts, 0),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    fiveXx: results.reduce((s, r) => s + r['5xx'], 0),
  };
}

const ok = (r: Result): boolean => r.p99 < P99_LIMIT_MS && r.errors === 0 && r.non2xx === 0;

interface Row {
  setup: string;
  max: Result;
  rate: number;
  sustained: Result;
}

/** Highest rate (rounded to 50 req/s) whose probe passes, searched by bisection below the unthrottled maximum. */
async function measure(setup: string, nodes: Node[]): Promise<Row> {
  await load(nodes, 3); // warm-up: JIT, connection pools, caches
  const max = await load(nodes, probeSeconds);
  log(`${setup}: unthrottled ${Math.round(max.rps)} req/s, p99 ${max.p99} ms`);
  let low = 0;
  let high = Math.ceil(max.rps / 50) * 50;
  while (high - low > Math.max(50, high * 0.05)) {
    const rate = Math.round((low + high) / 100) * 50;
    const r = await load(nodes, probeSeconds, rate);
    log(`${setup}: ${rate} req/s -> p99 ${r.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}`);
    if (ok(r)) low = rate;
    else high = rate;
  }
  let rate = low;
  for (;;) {
    const sustained = await load(nodes, duration, rate);
    log(`${setup}: ${duration} s at ${rate} req/s -> ${Math.round(sustained.rps)} req/s, p99 ${sustained.p99} ms, errors ${sustained.errors}, non-2xx ${sustained.non2xx}`);
    if (ok(sustained) || rate <= 50) return { setup, max, rate, sustained };
    rate = Math.floor((rate * 0.9) / 50) * 50;
  }
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function mainHostile(): Promise<void> {
  const conns = Number(opt('connections', '200'));
  const settle = Number(opt('settle', '15'));
  const rounds = Number(opt('rounds', '3'));
  const node = await startNode({});
  try {
    const r = await hostile(node, KEY, KEYS, { seconds: duration, connections: conns, settleS: settle, rounds });
    const cpu = os.cpus();
    const kinds = shots(KEY, KEYS);
    process.stdout.write(
      `\n${cpu.length} cores (${cpu[0]?.model ?? '?'}), Node ${process.version}; one embedded API process; ${conns} connections, ${rounds} rounds of ${duration} s, ` +
        `${kinds.length} kinds of request at random (${kinds.filter((k) => k.expect < 300).length} valid); load generator on the same machine; ` +
        `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n\n`,
    );
    process.stdout.write('| requests | req/s | p50 ms | p99 ms | 2xx | 4xx | 5xx | connection errors | not the expected status |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n');
    const wrong = [...r.unexpected.values()].reduce((n, m) => n + [...m.values()].reduce((a, b) => a + b, 0), 0);
    process.stdout.write(
      `| ${r.requests} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.byClass['2xx']} | ${r.byClass['4xx']} | ${r.byClass['5xx']} | ${r.errors} | ${wrong} |\n\n`,
    );
    const m = r.memory;
    const pct = (a: number, b: number): string => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(0)} %`;
    const rows: [string, (x: (typeof m.after)[number]) => number][] = [
      ['RSS', (x) => x.rssMb],
      ['JS heap used', (x) => x.heapUsedMb],
      ['JS heap reserved', (x) => x.heapTotalMb],
      ['outside the JS heap (buffers)', (x) => x.externalMb],
    ];
    process.stdout.write(`| MB, after a full GC | before the load | ${m.after.map((_, i) => `after round ${i + 1}`).join(' | ')} | last vs before |\n`);
    process.stdout.write(`|---|---:|${m.after.map(() => '---:|').join('')}---:|\n`);
    for (const [name, f] of rows) {
      process.stdout.write(`| ${name} | ${f(m.before).toFixed(1)} | ${m.after.map((x) => f(x).toFixed(1)).join(' | ')} | ${pct(f(m.after.at(-1)!), f(m.before))} |\n`);
    }
    process.stdout.write(`\npeak RSS ${m.peakRssMb.toFixed(0)} MB\n`);
    for (const [kind, statuses] of r.unexpected) {
      process.stdout.write(`\nunexpected: ${kind}: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
    }
    process.stdout.write('\n');
  } finally {
    await stopServerProcesses([node]);
  }
}

async function main(): Promise<void> {
  if (mix === 'hostile') return mainHostile();
  const rows: Row[] = [];
  if (only !== 'scaled') {
    const nodes = [await startNode({})];
    try {
      rows.push(await measure('embedded: 1 API process, SQLite', nodes));
    } finally {
      await stopServerProcesses(nodes);
    }
  }
  if (only !== 'embedded') {
    const scaled = scaledEnvironment('load', DATABASE_URL, REDIS_URL);
    const nodes = await Promise.all([startNode(scaled.env), startNode(scaled.env)]);
    try {
      rows.push(await measure('scaled: 2 API processes, Postgres + Redis', nodes));
    } finally {
      await stopServerProcesses(nodes);
      await scaled.cleanup();
    }
  }
  const cpu = os.cpus();
  process.stdout.write(
    `\n${cpu.length} cores (${cpu[0]?.model ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ` +
      `${connections} connections at a fixed rate, ${maxConnections} unthrottled; probes ${probeSeconds} s, sustained ${duration} s; ` +
      `load generator on the same machine; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n\n`,
  );
  process.stdout.write('| setup | unthrottled req/s | unthrottled p99 ms | highest rate with p99 < 100 ms | sustained req/s | p50 ms | p99 ms | errors | non-2xx | 5xx |\n');
  process.stdout.write('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n');
  for (const r of rows) {
    const s = r.sustained;
    process.stdout.write(
      `| ${r.setup} | ${Math.round(r.max.rps)} | ${r.max.p99} | ${r.rate} | ${Math.round(s.rps)} | ${s.p50} | ${s.p99} | ${s.errors} | ${s.non2xx} | ${s.fiveXx} |\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
