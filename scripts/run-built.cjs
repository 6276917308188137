#!/usr/bin/env node
/*
 * Runs a command line entry point from its compiled JavaScript (dist/), compiling the TypeScript
 * sources first only when one of them is newer than the last compilation.
 *
 *   node scripts/run-built.cjs src/cli/analyse.ts [args...]
 *   node scripts/run-built.cjs --compile        (npm run build: compile when stale, nothing else)
 *
 * Through tsx every start transpiles the module graph again in the main thread and in each
 * engine thread: about 2 s of CPU before the first file is read. Compiled, the same start is
 * the engine threads' own (docs/engine/speed.md, "Start"). The check is the newest modification
 * time under src/ and types/ and of the tsconfig files against a stamp written after each
 * compilation, a few milliseconds; a changed source (an edit, a pull) triggers one `tsc -p
 * tsconfig.build.json` first, said on stderr. Two commands started together compile once: the
 * second waits on a lock directory, then runs what the first compiled.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const Module = require('node:module');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.compiled');
const LOCK = path.join(DIST, '.compiling');
/** A lock older than this is left over from a compilation that was killed. */
const STALE_LOCK_MS = 10 * 60 * 1000;
const SOURCES = ['src', 'types'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time (ms) of the TypeScript sources and the compiler's configuration. */
function newestSource() {
  let newest = 0;
  const visit = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of SOURCES) visit(path.join(ROOT, dir));
  for (const file of CONFIGS) newest = Math.max(newest, fs.statSync(path.join(ROOT, file)).mtimeMs);
  return newest;
}

function stampTime() {
  try {
    return fs.statSync(STAMP).mtimeMs;
  } catch {
    return -1;
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Takes the lock directory (true), or waits while another command compiles (false once it is done). */
function lock() {
  fs.mkdirSync(DIST, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      return true;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let age;
    try {
      age = Date.now() - fs.statSync(LOCK).mtimeMs;
    } catch {
      continue;
    }
    if (age > STALE_LOCK_MS) {
      fs.rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    sleep(200);
    if (!fs.existsSync(LOCK)) return false;
  }
}

/** Compiles when a source is newer than the stamp; returns why it failed, or undefined. */
function compileIfStale() {
  const sources = newestSource();
  if (stampTime() >= sources) return undefined;
  if (!lock()) return compileIfStale();
  try {
    // Sources saved during the compilation are newer than the stamp's start time: compiled next time.
    const started = Date.now();
    if (stampTime() >= sources) return undefined;
    process.stderr.write('compiling the TypeScript sources into dist/ (they changed since the last compilation)\n');
    const tsc = require.resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
    if (result.status !== 0) return `the compilation failed (tsc exit status ${result.status ?? result.signal}): nothing was run`;
    fs.writeFileSync(STAMP, '');
    const at = new Date(started);
    fs.utimesSync(STAMP, at, at);
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

/** compileIfStale, leaving with exit status 2 and the reason when the compilation fails. */
function ensureCompiled() {
  const failure = compileIfStale();
  if (failure === undefined) return;
  process.stderr.write(`${failure}\n`);
  process.exit(2);
}

const [entry, ...args] = process.argv.slice(2);
if (entry === '--compile' && args.length === 0) {
  // `npm run build`: compile when stale, run nothing.
  ensureCompiled();
  process.exit(0);
}
if (!entry || !/^src\/.+\.ts$/.test(entry)) {
  process.stderr.write('usage: node scripts/run-built.cjs (--compile | src/<entry>.ts [args...])\n');
  process.exit(2);
}
ensureCompiled();
// Run the compiled entry as the main module, as `node dist/src/<entry>.js args...` would.
process.argv = [process.argv[0], path.join(DIST, entry.replace(/\.ts$/, '.js')), ...args];
Module.runMain();
