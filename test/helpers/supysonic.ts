import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { File as TagFile, TagTypes } from 'node-taglib-sharp';
import { RATE, encodeWav, song } from '../../measure/audio/audio-signals';

/**
 * Debian's Supysonic (`apt-get install supysonic python3-waitress`), a real server of the Subsonic
 * API, on a folder of generated audio: the tests of the subsonic source against a real server.
 * Both of its commands read `supysonic.conf` from their working folder, so each server lives in
 * a temporary folder of its own (its configuration, SQLite database, cache and music).
 */

/** A song of the server's folder: its tags, and how its file is made. */
export interface SupysonicSong {
  artist: string;
  title: string;
  album: string;
  file: string;
}

/** Generated WAVs, tagged (ID3v2 in the RIFF file, which Supysonic's mediafile reads), and the tagged fixtures of the library tests. */
const GENERATED: readonly (SupysonicSong & { audio: () => Float32Array })[] = [
  { artist: 'Northern Rooms', title: 'Aurora Drive', album: 'Night Roads', file: 'northern-rooms-aurora-drive.wav', audio: () => song(8, { bpm: 120, tonic: 9, minor: true, bright: true, seed: 4 }) },
  { artist: 'Harbour Lights', title: 'Slow Tide', album: 'Coastal', file: 'harbour-lights-slow-tide.wav', audio: () => song(8, { bpm: 84, tonic: 7, minor: false, bright: false, drums: false }) },
  { artist: 'Northern Rooms', title: 'Glass Harbour', album: 'Night Roads', file: 'northern-rooms-glass-harbour.wav', audio: () => song(8, { bpm: 96, tonic: 2, minor: false, bright: true, seed: 9 }) },
];

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'library');

/** The fixtures copied in (their tags: test/fixtures/library/README.md); money.mp3 has a cover. */
const COPIED: readonly SupysonicSong[] = [
  { artist: 'Pink Floyd', title: 'Money', album: 'The Dark Side of the Moon', file: 'money.mp3' },
  { artist: 'Sigur Rós', title: 'Hoppípolla', album: '[non-album tracks]', file: 'hoppipolla.flac' },
];

export const SUPYSONIC_SONGS: readonly SupysonicSong[] = [...GENERATED, ...COPIED];

export interface SupysonicServer {
  /** The server's address (SUBSONIC_URL). */
  url: string;
  user: string;
  password: string;
  /** The folder it serves. */
  musicDir: string;
  /** Rescans the folder (after a file was added, changed or removed). */
  scan(): Promise<void>;
  stop(): Promise<void>;
}

/** Why Supysonic cannot run here, or undefined when it can. */
export function supysonicMissing(): string | undefined {
  const missing = ['supysonic-cli', 'supysonic-server'].filter((command) => !onPath(command));
  if (missing.length > 0) return `${missing.join(' and ')} not installed (apt-get install supysonic python3-waitress)`;
  const waitress = spawnSync('/usr/bin/python3', ['-c', 'import waitress'], { stdio: 'ignore' });
  if (waitress.status !== 0) return 'python3-waitress not installed (apt-get install python3-waitress)';
  return undefined;
}

/** `describe`, or `describe.skip` saying why, when Supysonic cannot run. */
export function describeWithSupysonic(): jest.Describe {
  const reason = supysonicMissing();
  if (reason === undefined) return describe;
  process.stderr.write(`skipping tests against a real Subsonic server: ${reason}\n`);
  return describe.skip;
}

/**
 * A running Supysonic in a temporary folder: `supysonic.conf` (its SQLite database and caches in
 * the folder, no daemon, no web pages), the songs of SUPYSONIC_SONGS in `music/`, a user, the
 * folder added and scanned, the server on a free port of 127.0.0.1, answered once `ping` answers.
 */
export async function startSupysonic(options: { user?: string; password?: string } = {}): Promise<SupysonicServer> {
  const user = options.user ?? 'alice';
  // Characters a URL must escape, and one outside ASCII: the credentials travel in query strings.
  const password = options.password ?? 'pa ss&wörd=1';
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-supysonic-'));
  const musicDir = path.join(dir, 'music');
  await mkdir(musicDir);
  await mkdir(path.join(dir, 'cache'));
  await writeFile(
    path.join(dir, 'supysonic.conf'),
    [
      '[base]',
      `database_uri = sqlite:///${path.join(dir, 'supysonic.db')}`,
      '[webapp]',
      `cache_dir = ${path.join(dir, 'cache')}`,
      'mount_webui = no',
      'log_level = WARNING',
      '[daemon]',
      `socket = ${path.join(dir, 'daemon.sock')}`,
      'run_watcher = no',
      '',
    ].join('\n'),
  );
  await writeSongs(musicDir);
  const cli = (...args: string[]): void => {
    const run = spawnSync('supysonic-cli', args, { cwd: dir, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`supysonic-cli ${args[0]} ${args[1]} failed: ${run.stderr || run.stdout}`);
  };
  cli('user', 'add', user, '-p', password);
  cli('folder', 'add', 'music', musicDir);
  cli('folder', 'scan', 'music');
  const port = await freePort();
  const child = spawn('supysonic-server', ['-S', 'waitress', '-h', '127.0.0.1', '-p', String(port)], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilPingAnswers(url, child, () => stderr);
  } catch (error) {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    user,
    password,
    musicDir,
    scan: () => {
      cli('folder', 'scan', 'music');
      return Promise.resolve();
    },
    async stop() {
      await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function writeSongs(musicDir: string): Promise<void> {
  for (const s of GENERATED) await writeTaggedWav(path.join(musicDir, s.file), s, s.audio());
  for (const s of COPIED) await copyFile(path.join(FIXTURES, s.file), path.join(musicDir, s.file));
}

/**
 * A WAV of `audio` tagged with the song's names as ID3v2 (the "id3 " chunk Supysonic reads),
 * written by node-taglib-sharp as the library's tag writer does.
 */
export async function writeTaggedWav(file: string, s: Pick<SupysonicSong, 'artist' | 'title' | 'album'>, audio: Float32Array): Promise<void> {
  await writeFile(file, encodeWav([audio], RATE));
  writeTags(file, s, undefined);
  // The engine's WAV reader (audio-decode) does not skip the pad byte after a chunk of odd
  // size: a year (a frame of odd size) makes the tag's chunk even.
  if (await hasOddChunk(file)) writeTags(file, s, 2024);
  if (await hasOddChunk(file)) throw new Error(`${file}: a RIFF chunk of odd size`);
}

function writeTags(file: string, s: Pick<SupysonicSong, 'artist' | 'title' | 'album'>, year: number | undefined): void {
  const tagged = TagFile.createFromPath(file);
  try {
    const tag = tagged.getTag(TagTypes.Id3v2, true);
    tag.title = s.title;
    tag.performers = [s.artist];
    tag.album = s.album;
    if (year !== undefined) tag.year = year;
    tagged.save();
  } finally {
    tagged.dispose();
  }
}

/** Whether a RIFF file has a chunk of odd size. */
async function hasOddChunk(file: string): Promise<boolean> {
  const bytes = await readFile(file);
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = bytes.readUInt32LE(at + 4);
    if (size % 2 === 1) return true;
    at += 8 + size;
  }
  return false;
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Asks `ping` (without credentials: any answer of the API will do) until the server answers, it exits, or 30 s pass. */
async function untilPingAnswers(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`supysonic-server exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(`${url}/rest/ping.view?f=json`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json()) as { 'subsonic-response'?: unknown };
      if (body['subsonic-response']) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`supysonic-server did not answer ping within 30 s: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
