import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../../../src/core/logger';
import type { AnalysisEngine, AudioInput, AudioProbe } from '../../../../src/core/types';
import { PROBES_AT_ONCE } from '../../../../src/sources/library/library.index';
import { LibrarySource } from '../../../../src/sources/library/library.source';

// More files than the index probes at once (PROBES_AT_ONCE), so a close can come with files left to probe.
const FILES = [
  'Pink Floyd - Money.mp3', 'Pink Floyd - Time.mp3', 'ABBA - Waterloo.mp3', 'Sigur Rós - Hoppípolla.mp3',
  'Beyoncé - Halo.mp3', 'Pink Floyd - Cymbaline.mp3', 'ABBA - Fernando.mp3', 'Brian Adams - Forgive.mp3',
];

/** Tags from the file name; each probe waits until the test lets it go. */
class GatedEngine implements AnalysisEngine {
  probed: string[] = [];
  private waiting: (() => void)[] = [];

  analyse(): Promise<never> {
    return Promise.reject(new Error('not used'));
  }

  async probe(input: AudioInput): Promise<AudioProbe> {
    if (!('path' in input)) return {};
    await new Promise<void>((release) => this.waiting.push(release));
    const name = path.basename(input.path, path.extname(input.path));
    this.probed.push(name);
    const [artist, title] = name.split(' - ');
    return { artist: artist!, title: title!, durationMs: 200_000 };
  }

  /** Lets every probe waiting now go on. */
  release(): void {
    const w = this.waiting;
    this.waiting = [];
    for (const go of w) go();
  }

  get blocked(): number {
    return this.waiting.length;
  }

  async close(): Promise<void> {}
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

describe('library indexed in the background (npm start)', () => {
  let dir: string;
  let root: string;
  const sourceWith = (engine: AnalysisEngine) =>
    new LibrarySource({ root, dataDir: path.join(dir, 'data'), watch: false, artworkUrl: (k) => `/art/${k}` }, engine, silentLogger);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tg-library-bg-'));
    root = path.join(dir, 'music');
    await mkdir(root);
    await mkdir(path.join(dir, 'data'));
    for (const name of FILES) await writeFile(path.join(root, name), Buffer.from(`ID3 ${name}`));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('start returns before the files are probed; search finds each file once probed; pending says how far it got', async () => {
    const engine = new GatedEngine();
    const source = sourceWith(engine);
    await source.start({ background: true });
    await until(() => engine.blocked > 0);
    expect(source.pending()).toBe(`indexing: 0 of ${FILES.length} files`);
    expect(await source.search({ track: 'Money', artist: 'Pink Floyd', limit: 5 })).toEqual([]);

    while (source.pending() !== undefined) {
      engine.release();
      await new Promise((r) => setTimeout(r, 5));
    }
    const found = await source.search({ track: 'Money', artist: 'Pink Floyd', limit: 5 });
    expect(found[0]?.trackName).toBe('Money');
    expect(engine.probed.sort()).toEqual(FILES.map((f) => f.replace('.mp3', '')).sort());
    await source.close();
  });

  it('closing stops the indexing after the probes under way; the next start probes only the rest', async () => {
    const engine = new GatedEngine();
    const source = sourceWith(engine);
    await source.start({ background: true });
    // Every reader has taken its file (each stats it before the probe): those are the reads under
    // way, which a close lets finish. Closing while one is still in its stat would leave its probe
    // to start after the release below, gated for ever.
    await until(() => engine.blocked === PROBES_AT_ONCE);
    const underWay = engine.blocked;
    expect(underWay).toBeLessThan(FILES.length);
    const closed = source.close();
    engine.release();
    await closed;
    expect(engine.probed).toHaveLength(underWay);

    const next = new GatedEngine();
    const again = sourceWith(next);
    const started = again.start();
    await until(() => next.blocked > 0);
    while (again.pending() !== undefined) {
      next.release();
      await new Promise((r) => setTimeout(r, 5));
    }
    await started;
    // Files probed before the close were kept (snapshot); only the others were probed again.
    expect(next.probed).toHaveLength(FILES.length - underWay);
    expect([...engine.probed, ...next.probed].sort()).toEqual(FILES.map((f) => f.replace('.mp3', '')).sort());
    await again.close();
  });
});
