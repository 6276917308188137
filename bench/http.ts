import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startServerProcess, stopServerProcesses, type ServerProcess } from './lib/server-process';
import { median } from './lib/stats';

/**
 * Requests/s and p99 for one stored analysis over REST and over GraphQL, beside a bare Express
 * route returning the same JSON, in one run (ratios matter; absolute numbers vary by machine).
 * Each server runs in its own process; the load generator runs in this one.
 *
 *   npm run bench:http -- [--duration 5] [--rounds 5] [--connections 50] [--before-dir <checkout>]
 *
 * With --before-dir (another revision's tree, e.g. `git archive <rev> | tar -x -C <dir>` with
 * node_modules linked in), that revision's server runs beside this one and its REST and GraphQL
 * targets are loaded in the same rounds: a before/after comparison under the same conditions.
 */
const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const duration = opt('duration', 5);
const rounds = opt('rounds', 5);
const connections = opt('connections', 50);
const beforeIndex = args.indexOf('--before-dir');
const beforeDir = beforeIndex >= 0 ? path.resolve(args[beforeIndex + 1]!) : undefined;
const KEY = 'bench-key-0123456789';

/** A server of bench/http/server.ts (of this tree, or of `root`), with the key of the analysis it stores. */
async function startServer(mode: 'bare' | 'app', root = path.join(__dirname, '..')): Promise<{ port: number; trackKey: string; process: ServerProcess }> {
  const server = await startServerProcess(`${mode} server`, path.join(root, 'bench', 'http', 'server.ts'), {
    args: [mode, KEY],
    // tsx reads the decorator settings from the tree's own tsconfig.
    env: { TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json') },
  });
  return { port: server.port, trackKey: server.ready[0]!, process: server };
}

interface Row {
  target: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(opts: autocannon.Options): Promise<Omit<Row, 'target'>> {
  const r = await autocannon({ ...opts, duration, connections });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

/**
 * All servers run at once; the targets are loaded one after another in `rounds` rounds, and each
 * round's ratio is taken against the bare route measured in that same round, so a change in the
 * machine's background load shifts both sides of a ratio alike. Medians over the rounds.
 */
async function main(): Promise<void> {
  const bare = await startServer('bare');
  const app = await startServer('app');
  const before = beforeDir ? await startServer('app', beforeDir) : undefined;
  const headers = { authorization: `Bearer ${KEY}` };
  const query = `query($k: String!) { analysis(trackKey: $k) { artist trackKey trackName duration_ms tempo key keyString mode timeSignature energy liveness danceability instrumentalness speechiness valence arousal approachability engagement mood { happy sad relaxed aggressive } meta { artist track } } }`;
  let nonce = 0;
  const targets: { target: string; opts: autocannon.Options }[] = [
    { target: 'bare Express route, same JSON', opts: { url: `http://127.0.0.1:${bare.port}/api/audio/analysis/${bare.trackKey}` } },
    { target: 'REST GET /api/audio/analysis/:key', opts: { url: `http://127.0.0.1:${app.port}/api/audio/analysis/${app.trackKey}`, headers } },
    {
      target: 'GraphQL analysis(trackKey)',
      opts: {
        url: `http://127.0.0.1:${app.port}/graphql`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { k: app.trackKey } }),
      },
    },
    {
      // A unique (ignored) extension per request makes every body new to the edge cache, so each
      // request runs Apollo's pipeline (its document and response caches still hit).
      target: 'GraphQL analysis(trackKey), past the edge cache',
      opts: {
        url: `http://127.0.0.1:${app.port}/graphql`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ query, variables: { k: app.trackKey }, extensions: { nonce: ++nonce } }) }),
          },
        ],
      },
    },
  ];
  if (before) {
    targets.splice(
      2,
      0,
      { target: 'REST GET /api/audio/analysis/:key, before', opts: { url: `http://127.0.0.1:${before.port}/api/audio/analysis/${before.trackKey}`, headers } },
    );
    targets.splice(4, 0, {
      target: 'GraphQL analysis(trackKey), before',
      opts: {
        url: `http://127.0.0.1:${before.port}/graphql`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { k: before.trackKey } }),
      },
    });
  }
  const results = targets.map(() => [] as Omit<Row, 'target'>[]);
  try {
    // A short warm-up so JIT and caches are hot before measuring.
    for (const t of targets) await autocannon({ ...t.opts, duration: 2, connections });
    for (let round = 0; round < rounds; round++) {
      // With a revision to compare, each pair (this, before) goes first in every other round.
      const order = targets.map((_, i) => i);
      if (before && round % 2 === 1) order.splice(1, 4, 2, 1, 4, 3);
      for (const i of order) results[i]!.push(await measure(targets[i]!.opts));
    }
  } finally {
    await stopServerProcesses([bare.process, app.process, ...(before ? [before.process] : [])]);
  }
  process.stdout.write(
    `\n${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}; ` +
      `${connections} connections, ${rounds} rounds of ${duration} s per target (medians)\n\n`,
  );
  process.stdout.write('| target | req/s | p99 ms | errors | non-2xx | vs bare (median of per-round ratios) |\n|---|---:|---:|---:|---:|---:|\n');
  for (const [i, t] of targets.entries()) {
    const rs = results[i]!;
    const ratios = rs.map((r, round) => r.rps / results[0]![round]!.rps);
    process.stdout.write(
      `| ${t.target} | ${Math.round(median(rs.map((r) => r.rps)))} | ${median(rs.map((r) => r.p99))} | ` +
        `${rs.reduce((a, r) => a + r.errors, 0)} | ${rs.reduce((a, r) => a + r.non2xx, 0)} | ${median(ratios).toFixed(2)} |\n`,
    );
  }
  if (before) {
    // This revision against the other, per round (the two are loaded back to back in each round).
    const versus = (now: number, then: number) => median(results[now]!.map((r, round) => r.rps / results[then]![round]!.rps)).toFixed(2);
    process.stdout.write(`\nthis revision / the --before-dir one, median of per-round ratios: REST ${versus(1, 2)}, GraphQL ${versus(3, 4)}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
