import fs from 'node:fs';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../../../src/core/logger';
import { trackKey } from '../../../../src/core/track-key';
import { LibraryIndex } from '../../../../src/sources/library/library.index';
import { LibrarySnapshot } from '../../../../src/sources/library/library.snapshot';

/** Tags from the file name ("Artist - Title.mp3"), answered at once. */
const probe = (file: string) => {
  const [artist, title] = path.basename(file, '.mp3').split(' - ');
  return Promise.resolve({ artist: artist!, title: title! });
};

describe('library index snapshot writes', () => {
  let dir: string;
  let root: string;
  let snapshotFile: string;
  let renames: jest.SpyInstance;
  const writesOfSnapshot = () => renames.mock.calls.filter(([, to]) => to === snapshotFile).length;
  const snapshotPaths = async () =>
    (JSON.parse(await readFile(snapshotFile, 'utf8')) as { entries: { relPath: string }[] }).entries.map((e) => e.relPath).sort();
  const names = (from: number, count: number) => Array.from({ length: count }, (_, i) => `Band ${from + i} - Song ${from + i}.mp3`);
  const addFiles = (files: string[]) => Promise.all(files.map((f) => writeFile(path.join(root, f), `audio of ${f}`)));

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tg-library-snapshot-'));
    root = path.join(dir, 'music');
    snapshotFile = path.join(dir, 'data', 'library-index.json');
    await mkdir(root);
    renames = jest.spyOn(fs.promises, 'rename');
  });
  afterEach(async () => {
    renames.mockRestore();
    await rm(dir, { recursive: true, force: true });
  });

  it('a burst of watcher updates writes far fewer times than events, and the file ends with every entry', async () => {
    const index = new LibraryIndex(root, snapshotFile, probe, silentLogger);
    await addFiles(names(0, 3));
    await index.scan();
    expect(writesOfSnapshot()).toBe(1);

    const burst = names(3, 60);
    await addFiles(burst);
    // The burst's first write is held until every refresh has asked for one, as on a machine
    // whose disk is slower than the events come: however the refreshes interleave, every change
    // that arrives while a write is under way is taken by the one write after it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writeFile = fs.promises.writeFile.bind(fs.promises);
    const writes = jest.spyOn(fs.promises, 'writeFile').mockImplementation(async (...args: Parameters<typeof fs.promises.writeFile>) => {
      await held;
      return writeFile(...args);
    });
    // Spied on, not replaced: each call goes through.
    const asked = jest.spyOn(LibrarySnapshot.prototype, 'save');
    // As the watcher does: one refresh per file, each asking for the snapshot to be written.
    const refreshing = Promise.all(burst.map((f) => index.refresh(f, true)));
    while (asked.mock.calls.length < burst.length) await new Promise((resolve) => setImmediate(resolve));
    release();
    const changed = await refreshing;
    writes.mockRestore();
    asked.mockRestore();
    expect(changed.every(Boolean)).toBe(true);
    // The burst's first write (held), and one more after it for every change that came meanwhile.
    expect(writesOfSnapshot() - 1).toBe(2);
    expect(await snapshotPaths()).toEqual([...names(0, 3), ...burst].sort());
    // Every write renamed its own temporary file: none is left behind.
    expect(await readdir(path.dirname(snapshotFile))).toEqual(['library-index.json']);
    await index.close();
  });

  it('each write has a temporary file of its own', async () => {
    const index = new LibraryIndex(root, snapshotFile, probe, silentLogger);
    await addFiles(names(0, 2));
    await index.scan();
    await addFiles(names(2, 20));
    await Promise.all(names(2, 20).map((f) => index.refresh(f, true)));
    await index.remove(names(0, 1)[0]!);
    const temporaries = renames.mock.calls.filter(([, to]) => to === snapshotFile).map(([from]) => from as string);
    expect(temporaries.length).toBeGreaterThanOrEqual(3);
    expect(new Set(temporaries).size).toBe(temporaries.length);
    await index.close();
  });

  it('close() waits for the pending write: the file then holds every change, removals included', async () => {
    const index = new LibraryIndex(root, snapshotFile, probe, silentLogger);
    await addFiles(names(0, 5));
    await index.scan();
    const burst = names(5, 30);
    await addFiles(burst);
    // Not awaited, as the watcher's callbacks are not: close() must wait for what they asked.
    for (const f of burst) void index.refresh(f, true);
    await index.close();
    expect(await snapshotPaths()).toEqual([...names(0, 5), ...burst].sort());
    // A removal is no file read: only the pending write holds it.
    void index.remove(names(0, 1)[0]!);
    await index.close();
    expect(await snapshotPaths()).toEqual([...names(1, 4), ...burst].sort());

    // A new index starts from that snapshot: nothing to probe again.
    const reread = jest.fn(probe);
    const restarted = new LibraryIndex(root, snapshotFile, reread, silentLogger);
    await rm(path.join(root, names(0, 1)[0]!));
    expect(await restarted.scan()).toEqual({ added: 0, removed: 0, total: 34 });
    expect(reread).not.toHaveBeenCalled();
  });
});

describe('library index keys', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'tg-library-keys-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('after watcher updates, a key names the first path in order that has it, also once that one is gone', async () => {
    const index = new LibraryIndex(root, path.join(root, 'data', 'library-index.json'), probe, silentLogger);
    await index.scan();
    const key = trackKey('Pink Floyd', 'Money');
    expect(index.byTrackKey(key)).toBeUndefined();
    const copies = ['b/Pink Floyd - Money.mp3', 'a/Pink Floyd - Money.mp3', 'c/Pink Floyd - Money.mp3'];
    for (const f of copies) {
      await mkdir(path.join(root, path.dirname(f)), { recursive: true });
      await writeFile(path.join(root, f), f);
    }
    await Promise.all(copies.map((f) => index.refresh(f, true)));
    expect(index.byTrackKey(key)?.relPath).toBe('a/Pink Floyd - Money.mp3');
    await index.remove('a/Pink Floyd - Money.mp3');
    expect(index.byTrackKey(key)?.relPath).toBe('b/Pink Floyd - Money.mp3');
    await index.close();
  });
});

describe('library tags are data from outside', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tg-library-tags-'));
    await mkdir(path.join(dir, 'music', 'Pink Floyd', 'Meddle'), { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const indexWith = async (tags: Awaited<ReturnType<typeof probe>> & { album?: string; durationMs?: number }) => {
    const file = path.join('Pink Floyd', 'Meddle', '07 - Echoes.mp3');
    await writeFile(path.join(dir, 'music', file), 'audio');
    const index = new LibraryIndex(path.join(dir, 'music'), path.join(dir, 'data', 'index.json'), () => Promise.resolve(tags), silentLogger);
    await index.scan();
    const [entry] = [...index.entries()];
    await index.close();
    return entry!;
  };

  it('control characters in a tag read as spaces (they could forge log lines or terminal output)', async () => {
    const entry = await indexWith({ artist: 'Pink\u0000Floyd', title: 'Echoes\u0007\r\n', album: '\u001b[2JMeddle' });
    expect(entry).toMatchObject({ artist: 'Pink Floyd', trackName: 'Echoes', album: '[2JMeddle', trackKey: trackKey('Pink Floyd', 'Echoes') });
  });

  it('a tag longer than a name may be counts as absent: the file is named from its path', async () => {
    const entry = await indexWith({ artist: 'x'.repeat(5000), title: 'y'.repeat(5000), album: 'z'.repeat(5000) });
    expect(entry).toMatchObject({ artist: 'Pink Floyd', trackName: 'Echoes' });
    expect(entry.album).toBeUndefined();
  });

  it.each([Number.NaN, -5, 0, 1e300])('a duration tag of %p is dropped', async (durationMs) => {
    const entry = await indexWith({ artist: 'Pink Floyd', title: 'Echoes', durationMs });
    expect(entry.durationMs).toBeUndefined();
  });
});

describe('a second scan of an index in use', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tg-library-rescan-'));
    await mkdir(path.join(dir, 'music'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('picks up files added since the first, reporting progress only when asked (readiness does not wait for the watcher’s)', async () => {
    const root = path.join(dir, 'music');
    /** Each probe waits until the test lets the ones waiting go. */
    let waiting: (() => void)[] = [];
    const gatedProbe = async (file: string) => {
      await new Promise<void>((go) => waiting.push(go));
      return probe(file);
    };
    const releaseAll = () => {
      for (const go of waiting.splice(0)) go();
    };
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
      expect(cond()).toBe(true);
    };
    const index = new LibraryIndex(root, path.join(dir, 'data', 'library-index.json'), gatedProbe, silentLogger);

    await writeFile(path.join(root, 'Pink Floyd - Money.mp3'), 'audio');
    const first = index.scan();
    await until(() => waiting.length === 1);
    expect(index.progress()).toEqual({ done: 0, total: 1 });
    releaseAll();
    await first;

    await writeFile(path.join(root, 'Pink Floyd - Time.mp3'), 'audio');
    const second = index.scan(undefined, { reportProgress: false });
    await until(() => waiting.length === 1);
    expect(index.progress()).toBeUndefined();
    releaseAll();
    expect(await second).toEqual({ added: 1, removed: 0, total: 2 });
    expect(index.byTrackKey(trackKey('Pink Floyd', 'Time'))?.relPath).toBe('Pink Floyd - Time.mp3');
    waiting = [];
    await index.close();
  });
});
