import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { LibrarySource } from '../../src/sources/library/library.source';
import { FakeEngine } from '../../measure/http/fake-engine';
import { captureLogs, LEVEL } from '../helpers/log-capture';
import { createTestApp } from '../helpers/test-app';

describe('tests stay off the network whatever the defaults are', () => {
  it('an app a test builds searches the library alone, and the catalogues point at a closed local port', async () => {
    const t = await createTestApp({ engine: new FakeEngine() });
    try {
      expect(t.container.registry.names).toEqual(['library']);
      for (const url of [t.container.config.DEEZER_BASE_URL, t.container.config.MUSICBRAINZ_BASE_URL, t.container.config.COVERART_BASE_URL]) {
        expect(new URL(url).hostname).toBe('127.0.0.1');
      }
    } finally {
      await t.close();
    }
  });

  it('a process a test spawns inherits the same (test/setup/environment.ts)', () => {
    expect(process.env.SOURCES).toBe('library');
    expect(loadConfig(process.env).DEEZER_BASE_URL).toBe('http://127.0.0.1:9');
  });
});

describe('a first start with no music', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tg-first-run-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const start = async (options: { watch: boolean; otherSources: string[] }) => {
    const log = captureLogs('info');
    const root = path.join(dir, 'library');
    const source = new LibrarySource({ root, dataDir: dir, artworkUrl: (k) => `/art/${k}`, ...options }, new FakeEngine(), log.logger);
    await source.start();
    await source.close();
    return { root, lines: log.lines };
  };

  it('makes the library folder and says where to put music and what searches reach meanwhile', async () => {
    const { root, lines } = await start({ watch: true, otherSources: ['deezer'] });
    expect(await readdir(root)).toEqual([]);
    expect(lines.find((l) => l.msg === 'library folder created')).toMatchObject({ dir: root });
    const empty = lines.find((l) => l.msg?.startsWith('the library is empty'));
    expect(empty).toMatchObject({ level: LEVEL.warn, dir: root, sources: ['library', 'deezer'] });
    expect(empty!.msg).toContain(`put audio files in ${root}`);
    expect(empty!.msg).toContain('picked up without a restart');
    expect(empty!.msg).toContain('searches reach deezer meanwhile');
    expect(empty!.formats).toEqual(expect.stringContaining('.m4a'));
  });

  it('with the library alone and no watcher, says how to enable a catalogue and how to index files', async () => {
    const { lines } = await start({ watch: false, otherSources: [] });
    const empty = lines.find((l) => l.msg?.startsWith('the library is empty'));
    expect(empty!.msg).toContain('npm run index');
    expect(empty!.msg).toContain('add deezer to SOURCES');
  });

  it('says nothing of the kind when the folder has music', async () => {
    const root = path.join(dir, 'library');
    await mkdir(root);
    await writeFile(path.join(root, 'Pink Floyd - Money.mp3'), 'bytes');
    const log = captureLogs('info');
    const source = new LibrarySource({ root, dataDir: dir, watch: false, artworkUrl: (k) => `/art/${k}` }, new FakeEngine(), log.logger);
    await source.start();
    await source.close();
    expect(log.lines.find((l) => l.msg === 'library indexed')).toMatchObject({ total: 1 });
    expect(log.lines.some((l) => l.msg?.startsWith('the library is empty'))).toBe(false);
    expect(log.lines.some((l) => l.msg === 'library folder created')).toBe(false);
  });
});
