import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { encodeWav, rng } from '../measure/audio/audio-signals';
import { clickTrack, SAMPLE_RATE } from '../measure/audio/signals';
import { encodeFlac } from './lib/flac';
import { scaledEnvironment } from './lib/scaled-env';
import { startServerProcess, stopServerProcesses, type ServerProcess } from '../measure/http/server-process';
import { median } from '../measure/stats';

/**
 * Uploads, embedded (one API process on SQLite, the analyses in its worker threads):
 *
 * 1. memory: heap and RSS of the server after a full GC, before and after `--uploads` small
 *    uploads (2 s WAV and FLAC files, flipped, truncated or spliced as the fuzz test does; the
 *    answers' statuses are counted, a 5xx fails the run);
 * 2. upload-to-analysis latency (POST to the analysis in hand, 202s polled): a 30 s clip as WAV
 *    and as FLAC, and a 5 min FLAC, each `--runs` times (new bytes each time), median;
 * 3. the API's read throughput (autocannon, GET /api/audio/analysis/{key} of a stored analysis)
 *    for `--duration` s, alone and while 30 s clips are uploaded one after the other.
 *
 * No MP3 or FLAC encoder is installed: the WAVs are encodeWav's, the FLACs bench/lib/flac.ts's
 * (16-bit mono, verbatim subframes: as large as the PCM, so decoding costs no prediction).
 *
 * With `--scaled`, the latencies of 2. again with the analyses on a separate worker process: an
 * API process and a worker (`src/worker.ts`) on Postgres and Redis (POSTGRES_URL, default
 * postgres://postgres@127.0.0.1:5432/test; REDIS_URL, default redis://127.0.0.1:6379; a schema
 * and key prefix of their own, dropped afterwards), the upload handed over through a shared
 * UPLOAD_DIR.
 *
 *   npm run bench:uploads -- [--uploads 1000] [--runs 5] [--duration 10] [--connections 20] [--scaled]
 */
const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const uploads = opt('uploads', 1000);
const runs = opt('runs', 5);
const duration = opt('duration', 10);
const connections = opt('connections', 20);
const scaled = args.includes('--scaled');
const KEY = 'bench-key-0123456789';
const root = path.join(__dirname, '..');
const script = path.join(root, 'bench', 'http', 'server.ts');
const random = rng(20261125);

/** Heap and RSS (bytes) of the server after a full GC (bench/http/server.ts answers "MEM"). */
function memory(server: ServerProcess): Promise<{ heap: number; rss: number }> {
  return new Promise((resolve) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /^MEM (\d+) (\d+)$/m.exec(out);
      if (!m) return;
      server.child.stdout!.off('data', onData);
      resolve({ heap: Number(m[1]), rss: Number(m[2]) });
    };
    server.child.stdout!.on('data', onData);
    server.child.stdin!.write('MEM\n');
  });
}

const mb = (b: number): string => (b / 1048576).toFixed(1);

/** A 2 s click track, its tempo (and so its bytes) changed each time, as WAV or FLAC. */
function smallFile(i: number): Buffer {
  const signal = clickTrack({ bpm: 90 + (i % 60), seconds: 2 });
  return Buffer.from(i % 2 === 0 ? encodeWav([signal], SAMPLE_RATE) : encodeFlac(signal, SAMPLE_RATE));
}

/** One of the fuzz test's mutations, or none (a third of the files are left whole). */
function mutate(bytes: Buffer): Buffer {
  const pick = Math.floor(random() * 4);
  if (pick === 0) {
    const out = Buffer.from(bytes);
    for (let i = 0; i < 20; i++) {
      const at = Math.floor(random() * (random() < 0.5 ? 512 : out.length));
      out[at] = out[at]! ^ (1 << Math.floor(random() * 8));
    }
    return out;
  }
  if (pick === 1) return bytes.subarray(0, Math.floor(random() * bytes.length));
  if (pick === 2) {
    const into = Math.floor(random() * bytes.length);
    const from = Math.floor(random() * bytes.length);
    return Buffer.concat([bytes.subarray(0, into), bytes.subarray(from, from + 4096), bytes.subarray(into)]);
  }
  return bytes;
}

/** Sends one upload to `base`; resolves with its status once its analysis is in hand (202s polled). */
function uploader(base: string, auth: Record<string, string>): (body: Buffer, type: string) => Promise<number> {
  let named = 0;
  return async (body, type) => {
    named++;
    const send = (): Promise<Response> =>
      fetch(`${base}/api/audio/analyses?artist=Bench&track=Upload%20${named}`, { method: 'POST', headers: { ...auth, 'content-type': type }, body });
    // Kept-alive connections the server closed as idle (while the next bodies were made) fail at
    // the first write: each is tried again on another, up to a few times.
    const res = await send()
      .catch(send)
      .catch(send)
      .catch(send);
    await res.arrayBuffer();
    if (res.status === 202) {
      const location = res.headers.get('location')!;
      for (;;) {
        await new Promise((r) => setTimeout(r, 50));
        const polled = await fetch(`${base}${location}`, { headers: auth });
        await polled.arrayBuffer();
        if (polled.status !== 202) return polled.status;
      }
    }
    return res.status;
  };
}

/** Upload-to-analysis latency, median of `runs` (new bytes each): a 30 s clip as WAV and FLAC, a 5 min FLAC. */
async function latencies(upload: (body: Buffer, type: string) => Promise<number>): Promise<[string, number, number][]> {
  const latency = async (make: (i: number) => Buffer, type: string): Promise<number> => {
    const times: number[] = [];
    // Made before the clock starts (a 5 min FLAC takes seconds to make here).
    const bodies = Array.from({ length: runs }, (_, i) => make(i));
    for (const body of bodies) {
      const start = performance.now();
      const status = await upload(body, type);
      if (status !== 200) throw new Error(`a latency upload answered ${status}`);
      times.push(performance.now() - start);
    }
    return median(times);
  };
  const clip = (seconds: number) => (i: number): Float32Array => clickTrack({ bpm: 100 + i, seconds });
  const rows: [string, number, number][] = [];
  const wav30 = (i: number): Buffer => Buffer.from(encodeWav([clip(30)(i)], SAMPLE_RATE));
  rows.push(['30 s clip, WAV', wav30(0).length, await latency(wav30, 'audio/wav')]);
  const flac30 = (i: number): Buffer => Buffer.from(encodeFlac(clip(30)(i), SAMPLE_RATE));
  rows.push(['30 s clip, FLAC', flac30(0).length, await latency(flac30, 'audio/flac')]);
  const flac300 = (i: number): Buffer => Buffer.from(encodeFlac(clip(300)(i), SAMPLE_RATE));
  rows.push(['5 min FLAC', flac300(0).length, await latency(flac300, 'audio/flac')]);
  return rows;
}

const latencyTable = (rows: [string, number, number][]): string[] => [
  '| upload | bytes | median ms to the analysis |',
  '|---|---:|---:|',
  ...rows.map(([name, bytes, ms]) => `| ${name} | ${bytes} | ${ms.toFixed(0)} |`),
];

/** The latencies with an API process and a worker process on Postgres and Redis, sharing UPLOAD_DIR. */
async function scaledLatencies(): Promise<string[]> {
  const env = scaledEnvironment('uploads', process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test', process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const shared = { ...env.env, UPLOAD_DIR: mkdtempSync(path.join(os.tmpdir(), 'trackgraph-bench-uploads-')), UPLOAD_QUOTA_FILES_PER_DAY: '0', UPLOAD_QUOTA_BYTES_PER_DAY: '0' };
  const api = await startServerProcess('api server', script, {
    args: ['app', KEY],
    env: { TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json'), ANALYSIS_WAIT_MS: '60000', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', ...shared },
  });
  // The worker prints no READY line: the first upload below waits until it takes jobs.
  const worker = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'worker.ts')], {
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json'), ...shared, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'trackgraph-bench-worker-')), SOURCES: 'library', ANALYSIS_WORKERS: '1', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const upload = uploader(`http://127.0.0.1:${api.port}`, { authorization: `Bearer ${KEY}` });
    // One upload first: the worker's engine threads start.
    await upload(Buffer.from(encodeWav([clickTrack({ bpm: 90, seconds: 4 })], SAMPLE_RATE)), 'audio/wav');
    return [
      '',
      `scaled: an API process and a worker process on Postgres and Redis, UPLOAD_DIR shared; load average ${os.loadavg()[0]!.toFixed(1)}`,
      '',
      ...latencyTable(await latencies(upload)),
      '',
    ];
  } finally {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
    await stopServerProcesses([api]);
    await env.cleanup();
  }
}

async function main(): Promise<void> {
  const server = await startServerProcess('app server', script, {
    args: ['app', KEY],
    env: { TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json'), UPLOAD_QUOTA_FILES_PER_DAY: '0', UPLOAD_QUOTA_BYTES_PER_DAY: '0', ANALYSIS_WAIT_MS: '60000' },
    stdin: true,
  });
  const base = `http://127.0.0.1:${server.port}`;
  const storedKey = server.ready[0]!;
  const auth = { authorization: `Bearer ${KEY}` };

  const upload = uploader(base, auth);

  try {
    // 1. Memory over many small, often broken, uploads, 4 at a time.
    for (let i = 0; i < 20; i++) await upload(smallFile(i), 'application/octet-stream');
    const before = await memory(server);
    const statuses = new Map<number, number>();
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < uploads) {
        const i = next++;
        const status = await upload(mutate(smallFile(1000 + i)), 'application/octet-stream');
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
    const after = await memory(server);
    const serverErrors = [...statuses].filter(([s]) => s >= 500);

    // 2. Upload-to-analysis latency.
    const rows = await latencies(upload);
    const wav30 = (i: number): Buffer => Buffer.from(encodeWav([clickTrack({ bpm: 100 + i, seconds: 30 })], SAMPLE_RATE));

    // 3. Read throughput, alone and while uploads run.
    const read = async (): Promise<{ rps: number; p99: number; errors: number }> => {
      const r = await autocannon({ url: `${base}/api/audio/analysis/${storedKey}`, headers: auth, duration, connections });
      return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
    };
    const alone = await read();
    let uploading = true;
    let uploaded = 0;
    const background = (async () => {
      for (let i = 0; uploading; i++) {
        await upload(wav30(100 + i), 'audio/wav');
        uploaded++;
      }
    })();
    const during = await read();
    uploading = false;
    await background;

    const load = os.loadavg()[0]!.toFixed(1);
    const out = [
      '',
      `embedded: one process, SQLite, in-process analyses; ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, load average ${load}`,
      '',
      `memory after a GC, before/after ${uploads} uploads: heap ${mb(before.heap)} → ${mb(after.heap)} MB, RSS ${mb(before.rss)} → ${mb(after.rss)} MB`,
      `answers: ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s} ×${n}`).join(', ')}`,
      '',
      ...latencyTable(rows),
      '',
      '| GET /api/audio/analysis/{key} | req/s | p99 ms | errors |',
      '|---|---:|---:|---:|',
      `| alone | ${alone.rps.toFixed(0)} | ${alone.p99} | ${alone.errors} |`,
      `| while 30 s clips are uploaded (${uploaded} in ${duration} s) | ${during.rps.toFixed(0)} | ${during.p99} | ${during.errors} |`,
      '',
    ];
    process.stdout.write(out.join('\n'));
    if (scaled) process.stdout.write((await scaledLatencies()).join('\n'));
    if (serverErrors.length > 0) throw new Error(`uploads answered 5xx: ${JSON.stringify(serverErrors)}`);
  } finally {
    await stopServerProcesses([server]);
  }
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause !== undefined ? `\ncaused by: ${(error.cause instanceof Error ? error.cause.message : JSON.stringify(error.cause))}` : '';
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}${cause}\n`);
  process.exit(1);
});
