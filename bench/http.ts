import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

/**
 * Requests/s and p99 for one stored analysis over REST and over GraphQL, beside a bare Express
 * route returning the same JSON, in one run (ratios matter; absolute numbers vary by machine).
 * Each server runs in its own process; the load generator runs in this one.
 *
 *   npm run bench:http -- [--duration 10] [--connections 50]
 */
const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const duration = opt('duration', 10);
const connections = opt('connections', 50);
const KEY = 'bench-key-0123456789';

async function startServer(mode: 'bare' | 'app', env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; trackKey: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'http', 'server.ts'), mode, KEY], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\d+) (\w+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), trackKey: m[2]! });
    });
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

interface Row {
  target: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(target: string, opts: autocannon.Options): Promise<Row> {
  // A short warm-up so JIT and caches are hot before measuring.
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration, connections });
  return { target, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const bare = await startServer('bare');
  try {
    rows.push(await load('bare Express route, same JSON', { url: `http://127.0.0.1:${bare.port}/api/audio/analysis/${bare.trackKey}` }));
  } finally {
    bare.child.kill();
  }
  const app = await startServer('app');
  try {
    const headers = { authorization: `Bearer ${KEY}` };
    rows.push(await load('REST GET /api/audio/analysis/:key', { url: `http://127.0.0.1:${app.port}/api/audio/analysis/${app.trackKey}`, headers }));
    const query = `query($k: String!) { analysis(trackKey: $k) { artist trackKey trackName duration_ms tempo key keyString mode timeSignature energy liveness danceability instrumentalness speechiness valence arousal approachability engagement mood { happy sad relaxed aggressive } meta { artist track } } }`;
    rows.push(
      await load('GraphQL analysis(trackKey)', {
        url: `http://127.0.0.1:${app.port}/graphql`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { k: app.trackKey } }),
      }),
    );
  } finally {
    app.child.kill();
  }
  const base = rows[0]!.rps;
  process.stdout.write(`\n${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}; ${connections} connections, ${duration} s each\n\n`);
  process.stdout.write('| target | req/s | p99 ms | errors | non-2xx | vs bare |\n|---|---:|---:|---:|---:|---:|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.target} | ${Math.round(r.rps)} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${(r.rps / base).toFixed(2)} |\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
