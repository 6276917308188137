import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OFFLINE_ENV } from '../helpers/offline-env';

/** The checkout: every command runs here, as a user runs it from the project's folder. */
export const ROOT = path.resolve(__dirname, '..', '..');

/** What a finished command printed. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a command run as a user would, kept off the network: only the library is
 * searched and the catalogues point at a closed local port (OFFLINE_ENV); JSON logs, so a test
 * reads them line by line.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...OFFLINE_ENV, LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...extra };
  // Jest's own settings must not leak into the product's processes.
  delete env.NODE_ENV;
  delete env.JEST_WORKER_ID;
  return env;
}

/** Runs a command to its end (or kills it after `timeoutMs`) and collects what it printed. */
export function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => killGroup(child), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `npm run <script> -- <args>`, as README writes it. */
/** The command's stdout when it exited 0; else an error holding its exit code and output (a failing suite's report is in the stderr's end). */
export function ok(ran: Ran): string {
  if (ran.code !== 0) throw new Error(`exit ${ran.code}:\n${ran.stdout.slice(-4000)}\n${ran.stderr.slice(-8000)}`);
  return ran.stdout;
}

export function npmRun(script: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ran> {
  return run('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], env, timeoutMs);
}

/** A long-running command (a server, a worker), with what it has printed so far. */
export interface Started {
  child: ChildProcess;
  output(): string;
  /** SIGTERM to its whole process group (npm, its shell, node); resolves with the exit code. */
  stop(): Promise<number | null>;
}

export function start(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      const timer = setTimeout(() => killGroup(child), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, failed?: () => string | undefined): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const why = failed?.();
    if (why) throw new Error(`${what}: ${why}`);
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function tempDir(label: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `trackgraph-smoke-${label}-`));
}

/** The real audio files of test/fixtures/library (MP3, Ogg Vorbis, FLAC), copied into `dir`. */
export async function fixtureLibrary(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const from = path.join(ROOT, 'test', 'fixtures', 'library');
  const files = (await readdir(from)).filter((f) => /\.(mp3|ogg|flac)$/.test(f));
  for (const f of files) await copyFile(path.join(from, f), path.join(dir, f));
  return files.map((f) => path.join(dir, f));
}

/** The JSON log lines of a process's output (LOG_FORMAT=json), other lines left out. */
export function logLines(output: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not a log line
    }
  }
  return lines;
}

/** GET a JSON answer with a Bearer key. */
export async function getJson(url: string, key?: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, key ? { headers: { Authorization: `Bearer ${key}` } } : {});
  return { status: res.status, body: await res.json() };
}
