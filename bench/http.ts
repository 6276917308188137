import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startServerProcess, stopServerProcesses, type ServerProcess } from '../measure/http/server-process';
import { median } from '../measure/stats';

/**
 * The gateway's cost: each route's requests/s as a ratio to Node's own `node:http` giving the
 * same answer from memory (the app's own, recorded: its headers and body) — the limit any Node
 * gateway giving that answer can approach — with node:http serving the body alone (the targeted
 * reads) and a bare Express route serving it beside, in the same run, with p50/p99, at
 * LOG_LEVEL=warn and info. Each server runs in a process of its own; the load generator runs in
 * this one. Rounds are interleaved (node:http, Express, app for a route, then the next route, …)
 * and each ratio is the median of the per-round ratios. Exits non-zero naming every route below
 * its target (against node:http: the stored-analysis read REST ≥ 0.6x and GraphQL ≥ 0.5x at
 * warn, ≥ 0.45x and ≥ 0.4x at info, p99 within 2 ms of node:http's); search from the cache, a
 * batch of 50 and a browse page are reported beside. Memory: heap and RSS after a full GC, before
 * and after --memory-requests more requests. Each server's CPU time per answered request (user
 * and system, asked of the process itself) is reported beside: on a shared machine it moves less
 * with other work than req/s does.
 *
 * The application runs compiled (dist/, compiled first when a source is newer), as `npm start`
 * runs it; `--tsx` runs its sources through tsx instead.
 *
 *   npm run bench:http -- [--duration 8] [--rounds 3] [--connections 50] [--levels warn,info]
 *                         [--memory-requests 1000000] [--no-check] [--tsx]
 */
const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const duration = opt('duration', 8);
const rounds = opt('rounds', 3);
const connections = opt('connections', 50);
const memoryRequests = opt('memory-requests', 1_000_000);
const levelsIndex = args.indexOf('--levels');
const levels = levelsIndex >= 0 ? args[levelsIndex + 1]!.split(',') : ['warn', 'info'];
const check = !args.includes('--no-check');
const KEY = 'bench-key-0123456789';
const root = path.join(__dirname, '..');
const script = path.join(root, 'bench', 'http', 'server.ts');
const compiled = !args.includes('--tsx');
const env = { TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json'), TRACKGRAPH_BENCH_COMPILED: compiled ? '1' : '0' };

const analysisQuery = `query($k: String!) { analysis(trackKey: $k) { artist trackKey trackName duration_ms tempo key keyString mode timeSignature energy liveness danceability instrumentalness speechiness valence arousal approachability engagement mood { happy sad relaxed aggressive } meta { artist track } } }`;
const browseQuery = `{ tracks(orderBy: { field: MOOD_HAPPY, direction: DESC }, first: 20) { edges { cursor node { trackKey artist trackName tempo keyString mood { happy } } } pageInfo { hasNextPage endCursor } } }`;

interface Target {
  name: string;
  /** Ratio targets to node:http (warn, info) that fail the run; absent: reported beside. */
  targets?: { warn: number; info: number };
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** A unique (ignored) `extensions.nonce` per request: every body is new to the edge cache. */
  nonce?: boolean;
}

function routes(trackKey: string, keys: string[]): Target[] {
  const gql = (query: string, variables?: object): string => JSON.stringify({ query, variables });
  return [
    { name: 'REST GET /api/audio/analysis/:key', targets: { warn: 0.6, info: 0.45 }, method: 'GET', path: `/api/audio/analysis/${trackKey}` },
    { name: 'GraphQL analysis(trackKey)', targets: { warn: 0.5, info: 0.4 }, method: 'POST', path: '/graphql', body: gql(analysisQuery, { k: trackKey }) },
    {
      name: 'GraphQL analysis(trackKey), past the edge cache',
      method: 'POST',
      path: '/graphql',
      body: gql(analysisQuery, { k: trackKey }),
      nonce: true,
    },
    { name: 'REST search, from the cache', method: 'GET', path: '/api/audio/search?track=Bench%20Track&limit=10' },
    { name: 'REST batch of 50 keys', method: 'GET', path: `/api/audio/analyses?keys=${keys.slice(0, 50).join(',')}` },
    { name: 'GraphQL browse page (tracks, 20)', method: 'POST', path: '/graphql', body: gql(browseQuery) },
  ];
}

interface Sample {
  rps: number;
  /** The server's CPU time (user and system) per answered request, µs. */
  cpu: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let nonce = 0;
async function load(server: ServerProcess, url: string, t: Target, seconds: number): Promise<Sample> {
  // Apollo's pipeline runs for each nonce body (its document and response caches still hit).
  const requests: autocannon.Request[] | undefined = t.nonce
    ? [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...(JSON.parse(t.body!) as object), extensions: { nonce: ++nonce } }) }) }]
    : undefined;
  const cpuBefore = await cpuTime(server);
  const r = await autocannon({ url, method: t.method, headers, body: t.body, duration: seconds, connections, ...(requests ? { requests } : {}) });
  const cpu = (await cpuTime(server)) - cpuBefore;
  return { rps: r.requests.average, cpu: cpu / Math.max(1, r.requests.total), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

/** One line of a server's answer to a probe written on its stdin (bench/http/server.ts). */
function probe(server: ServerProcess, question: string, answer: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = answer.exec(out);
      // At LOG_LEVEL=info the request log shares this stream: past the last line break, only a
      // partial line can still be part of the answer.
      if (!m) {
        out = out.slice(out.lastIndexOf('\n') + 1);
        return;
      }
      server.child.stdout!.off('data', onData);
      resolve(m);
    };
    server.child.stdout!.on('data', onData);
    server.child.stdin!.write(`${question}\n`);
  });
}

/** The CPU time a server process has used so far, µs (bench/http/server.ts answers "CPU"). */
async function cpuTime(server: ServerProcess): Promise<number> {
  return Number((await probe(server, 'CPU', /^CPU (\d+)\n/m))[1]);
}

/** Heap and RSS (bytes) of a server after a full GC (bench/http/server.ts answers "MEM"). */
async function memory(server: ServerProcess): Promise<{ heap: number; rss: number }> {
  const m = await probe(server, 'MEM', /^MEM (\d+) (\d+)\n/m);
  return { heap: Number(m[1]), rss: Number(m[2]) };
}

const mb = (b: number): string => (b / 1048576).toFixed(1);

/** The p99 a targeted route may add to node:http's, ms. */
const P99_MARGIN_MS = 2;

/** One log level: app up, its answers recorded, node:http and Express up serving them, interleaved rounds. */
async function runLevel(level: string): Promise<string[]> {
  const app = await startServerProcess(`app server (${level})`, script, { args: ['app', KEY], env: { ...env, LOG_LEVEL: level }, stdin: true });
  const base = `http://127.0.0.1:${app.port}`;
  const failures: string[] = [];
  const others: ServerProcess[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-bench-bare-'));
  try {
    const trackKey = app.ready[0]!;
    const batch = (await (await fetch(`${base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ tracks(first: 50) { edges { node { trackKey } } } }' }) })).json()) as {
      data: { tracks: { edges: { node: { trackKey: string } }[] } };
    };
    const targets = routes(trackKey, batch.data.tracks.edges.map((e) => e.node.trackKey));
    // The bytes each route answers (the search's first answer also fills the cache), for node:http and Express to serve.
    for (const [i, t] of targets.entries()) {
      const res = await fetch(base + t.path, { method: t.method, headers, body: t.body });
      if (res.status !== 200) throw new Error(`${t.name} answered ${res.status}: ${await res.text()}`);
      writeFileSync(path.join(dir, `r${i}.json`), await res.text());
      // Node writes these itself; everything else the answer carries, node:http sends too.
      const head = [...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name));
      writeFileSync(path.join(dir, `r${i}.head`), JSON.stringify(head));
    }
    const node = await startServerProcess(`node:http server (${level})`, script, { args: ['node', dir], env, stdin: true });
    others.push(node);
    const nodeBody = await startServerProcess(`node:http body-only server (${level})`, script, { args: ['node-body', dir], env, stdin: true });
    others.push(nodeBody);
    const bare = await startServerProcess(`Express server (${level})`, script, { args: ['bare', dir], env, stdin: true });
    others.push(bare);
    const at = (server: ServerProcess, i: number): string => `http://127.0.0.1:${server.port}/r${i}`;
    // Warm-up: JIT and caches hot on every side before measuring.
    const warm = Math.max(1, Math.min(2, duration));
    for (const [i, t] of targets.entries()) {
      await load(node, at(node, i), t, warm);
      if (t.targets) await load(nodeBody, at(nodeBody, i), t, warm);
      await load(bare, at(bare, i), t, warm);
      await load(app, base + t.path, t, warm);
    }
    const samples = targets.map(() => ({ node: [] as Sample[], nodeBody: [] as Sample[], bare: [] as Sample[], app: [] as Sample[] }));
    for (let round = 0; round < rounds; round++) {
      for (const [i, t] of targets.entries()) {
        samples[i]!.node.push(await load(node, at(node, i), t, duration));
        // The body alone, for the targeted reads: what their headers cost node:http itself.
        if (t.targets) samples[i]!.nodeBody.push(await load(nodeBody, at(nodeBody, i), t, duration));
        samples[i]!.bare.push(await load(bare, at(bare, i), t, duration));
        samples[i]!.app.push(await load(app, base + t.path, t, duration));
      }
    }
    process.stdout.write(
      `\nLOG_LEVEL=${level}\n\n| route | req/s | node:http req/s | ratio | ratio to node:http, body alone | Express req/s | ratio to Express | p50 ms | p99 ms | node:http p99 ms | CPU µs/req | node:http CPU µs/req | errors | non-2xx | target |\n` +
        `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n`,
    );
    for (const [i, t] of targets.entries()) {
      const s = samples[i]!;
      const ratio = median(s.app.map((a, r) => a.rps / s.node[r]!.rps));
      const toExpress = median(s.app.map((a, r) => a.rps / s.bare[r]!.rps));
      const toBody = s.nodeBody.length > 0 ? median(s.app.map((a, r) => a.rps / s.nodeBody[r]!.rps)).toFixed(2) : '—';
      const p99 = median(s.app.map((a) => a.p99));
      const nodeP99 = median(s.node.map((a) => a.p99));
      const goal = t.targets ? (level === 'info' ? t.targets.info : t.targets.warn) : undefined;
      const errors = s.app.reduce((a, r) => a + r.errors, 0);
      const non2xx = s.app.reduce((a, r) => a + r.non2xx, 0);
      const held = (goal === undefined || (ratio >= goal && p99 <= nodeP99 + P99_MARGIN_MS)) && errors === 0 && non2xx === 0;
      if (!held && goal !== undefined) {
        failures.push(`${t.name} at ${level}: ${ratio.toFixed(2)}x of node:http (target ${goal}x), p99 ${p99} ms against node:http's ${nodeP99} (target within ${P99_MARGIN_MS} ms), ${errors} errors, ${non2xx} non-2xx`);
      }
      process.stdout.write(
        `| ${t.name} | ${Math.round(median(s.app.map((a) => a.rps)))} | ${Math.round(median(s.node.map((a) => a.rps)))} | ${ratio.toFixed(2)} | ${toBody} | ` +
          `${Math.round(median(s.bare.map((a) => a.rps)))} | ${toExpress.toFixed(2)} | ${median(s.app.map((a) => a.p50))} | ${p99} | ${nodeP99} | ` +
          `${Math.round(median(s.app.map((a) => a.cpu)))} | ${Math.round(median(s.node.map((a) => a.cpu)))} | ${errors} | ${non2xx} | ` +
          `${goal !== undefined ? `≥ ${goal}x, p99 ≤ node:http's + ${P99_MARGIN_MS} ms: ${held ? 'held' : 'missed'}` : '—'} |\n`,
      );
    }
    // Memory per request: the REST read, --memory-requests more, heap and RSS after a GC either side.
    // Taken after the rounds, so caches the rounds fill (the nonce bodies) are not counted as growth.
    const rest = targets[0]!;
    const appMemBefore = await memory(app);
    await autocannon({ url: base + rest.path, method: rest.method, headers, connections, amount: memoryRequests });
    const appMemAfter = await memory(app);
    process.stdout.write(
      `\nmemory after a GC, before/after ${memoryRequests} more requests: heap ${mb(appMemBefore.heap)} → ${mb(appMemAfter.heap)} MB, ` +
        `RSS ${mb(appMemBefore.rss)} → ${mb(appMemAfter.rss)} MB\n`,
    );
  } finally {
    await stopServerProcesses([app, ...others]);
    rmSync(dir, { recursive: true, force: true });
  }
  return failures;
}

async function main(): Promise<void> {
  process.stdout.write(
    `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)} at start; ` +
      `${connections} connections, ${rounds} interleaved rounds of ${duration} s per route and bare (medians)\n`,
  );
  if (compiled) {
    // `npm run build`'s compilation: nothing to do when dist/ is newer than every source.
    const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'run-built.cjs'), '--compile'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the application did not compile (node scripts/run-built.cjs --compile)');
  }
  process.stdout.write(`the application ${compiled ? 'compiled (dist/), as npm start runs it' : 'through tsx (--tsx)'}\n`);
  const failures: string[] = [];
  for (const level of levels) failures.push(...(await runLevel(level)));
  process.stdout.write(`\nload average ${os.loadavg()[0]!.toFixed(1)} at end\n`);
  if (failures.length > 0) {
    process.stderr.write(`below target:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
    if (check) process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
