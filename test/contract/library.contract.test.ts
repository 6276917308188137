import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../src/core/logger';
import type { AnalysisEngine, AudioInput, AudioProbe } from '../../src/core/types';
import { LibrarySource } from '../../src/sources/library/library.source';
import { describeSourceContract } from './source.contract';

/** Tags read from the file name ("Artist - Title.ext"), as a probe of tagged files would give them. */
const engine: AnalysisEngine = {
  analyse: () => Promise.reject(new Error('not used')),
  probe: async (input: AudioInput): Promise<AudioProbe> => {
    if (!('path' in input)) return {};
    const [artist, title] = path.basename(input.path, path.extname(input.path)).split(' - ');
    return { ...(artist ? { artist } : {}), ...(title ? { title } : {}), durationMs: 200_000 };
  },
  close: async () => undefined,
};

describeSourceContract('library', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tg-library-'));
  const root = path.join(dir, 'music');
  await mkdir(root);
  for (const name of ['Pink Floyd - Money.mp3', 'Pink Floyd - Time.mp3', 'ABBA - Waterloo.mp3']) {
    await writeFile(path.join(root, name), Buffer.from('ID3'));
  }
  const source = new LibrarySource(
    { root, dataDir: path.join(dir, 'data'), watch: false, artworkUrl: (k) => `http://127.0.0.1/api/audio/artwork/${k}` },
    engine,
    silentLogger,
  );
  await mkdir(path.join(dir, 'data'));
  await source.start();
  return {
    source,
    knownQuery: { track: 'Money', artist: 'Pink Floyd', limit: 10 },
    unknownQuery: { track: 'Zzyzx Road Nonexistent', limit: 10 },
    close: async () => {
      await source.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
