import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { trackKey } from '../src/core/track-key';
import { scaledEnvironment } from './lib/scaled-env';
import { startServerProcess, stopServerProcesses, type ServerProcess } from '../measure/http/server-process';
import { median, percentile } from '../measure/stats';

/**
 * Webhook delivery latency: from the moment an analysis completes (the process that ran it
 * announces it) to the moment a local receiver has the signed message, p50 and p99.
 *
 *   npm run bench:webhooks -- [--analyses 200] [--concurrency 16] [--scaled]
 *
 * Embedded (default): one API process on SQLite, in-process jobs. --scaled: an API process and a
 * worker process on the Postgres and Redis of TEST_DATABASE_URL / TEST_REDIS_URL (default
 * 127.0.0.1, database `test`), in a schema and key prefix of their own, dropped afterwards; the
 * worker runs the analyses and the API node sends the messages. The receiver runs in this process
 * and answers 200 at once. Analyses are asked for one at a time, then `concurrency` at once.
 */
const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const analyses = opt('analyses', 200);
const concurrency = opt('concurrency', 16);
const scaled = args.includes('--scaled');
const KEY = 'bench-key-0123456789';
const ARTIST = 'Bench Artist';
const now = (): number => performance.timeOrigin + performance.now();

/** Songs 1..n of the bench library, one file each (the fake engine analyses any bytes). */
function writeLibrary(dir: string, count: number): { title: string; key: string }[] {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const title = `Song ${String(i + 1).padStart(4, '0')}`;
    writeFileSync(path.join(dir, `${ARTIST} - ${title}.mp3`), `bytes of ${title}`);
    return { title, key: trackKey(ARTIST, title) };
  });
}

/** Times of the analyses' completions (from the processes' EVENT lines), by trackKey. */
function watchEvents(process_: ServerProcess, into: Map<string, number>): void {
  let buffered = '';
  process_.child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^EVENT (\w+) ([\d.]+)$/.exec(line);
      // Every process that hears an event prints it: the first is the one that ran the analysis.
      if (m && !into.has(m[1]!)) into.set(m[1]!, Number(m[2]));
    }
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-bench-webhooks-'));
  // A warm-up of its own, then `analyses` asked one at a time and `analyses` more, `concurrency` at once.
  const warmUp = Math.min(10, analyses);
  const songs = writeLibrary(path.join(dir, 'library'), warmUp + analyses * 2);
  const arrived = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = now();
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { trackKey?: string } };
      if (body.type === 'analysis.completed' && body.data.trackKey) arrived.set(body.data.trackKey, at);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const setup = scaled
    ? scaledEnvironment(
        'bench_webhooks',
        process.env.TEST_DATABASE_URL ?? `postgres://${os.userInfo().username}@127.0.0.1:5432/test`,
        process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      )
    : undefined;
  const env = { API_KEYS: KEY, LIBRARY_DIR: path.join(dir, 'library'), OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_SECRET_KEY: 'a bench key of at least thirty-two characters', ...setup?.env };
  const script = path.join(__dirname, 'webhooks', 'server.ts');
  const processes: ServerProcess[] = [];
  const completed = new Map<string, number>();
  try {
    const api = await startServerProcess('api', script, { args: ['api'], env: { ...env, DATA_DIR: path.join(dir, 'api') } });
    processes.push(api);
    watchEvents(api, completed);
    if (scaled) {
      const worker = await startServerProcess('worker', script, { args: ['worker'], env: { ...env, DATA_DIR: path.join(dir, 'worker') } });
      processes.push(worker);
      watchEvents(worker, completed);
    }
    const base = `http://127.0.0.1:${api.port}`;
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const made = await fetch(`${base}/api/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiverUrl, events: ['analysis.completed'] }) });
    if (made.status !== 201) throw new Error(`the webhook was not made: ${made.status} ${await made.text()}`);

    const analyse = async (song: { title: string; key: string }): Promise<void> => {
      const res = await fetch(`${base}/api/audio/analysis/${song.key}?artist=${encodeURIComponent(ARTIST)}&track=${encodeURIComponent(song.title)}`, { headers });
      if (res.status !== 200) throw new Error(`analysis of ${song.title}: ${res.status}`);
      await res.arrayBuffer();
    };
    const waitFor = async (keys: string[]): Promise<void> => {
      const deadline = Date.now() + 60_000;
      while (keys.some((k) => !arrived.has(k) || !completed.has(k))) {
        if (Date.now() > deadline) throw new Error('messages missing after 60 s');
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const latencies = (keys: string[]): number[] => keys.map((k) => arrived.get(k)! - completed.get(k)!);

    // Warm-up: a few analyses, not counted.
    const warm = songs.slice(0, warmUp);
    for (const s of warm) await analyse(s);
    await waitFor(warm.map((s) => s.key));

    const sequential = songs.slice(warmUp, warmUp + analyses);
    for (const s of sequential) {
      await analyse(s);
      await waitFor([s.key]);
    }
    const concurrent = songs.slice(warmUp + analyses, warmUp + analyses * 2);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < concurrent.length) await analyse(concurrent[next++]!);
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    await waitFor(concurrent.map((s) => s.key));

    const report = (label: string, values: number[]): string =>
      `| ${label} | ${values.length} | ${median(values).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`;
    const load = os.loadavg()[0]!.toFixed(1);
    process.stdout.write(
      `\n${scaled ? 'scaled out: an API process and a worker on Postgres and Redis' : 'embedded: one process, SQLite, in-process jobs'}; ` +
        `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, load average ${load}\n\n` +
        '| analyses asked | messages | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|\n' +
        `${report('one at a time', latencies(sequential.map((s) => s.key)))}\n` +
        `${report(`${concurrency} at once`, latencies(concurrent.map((s) => s.key)))}\n`,
    );
  } finally {
    await stopServerProcesses(processes);
    receiver.closeAllConnections();
    receiver.close();
    await setup?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
