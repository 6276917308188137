import { Worker } from 'node:worker_threads';

/** What music-metadata reads from a file: every native tag flattened to id → text, BPM and the format. */
export interface MusicMetadataRead {
  bpm?: number;
  native: Record<string, string>;
  durationMs?: number;
  sampleRate?: number;
  channels?: number;
}

/*
 * music-metadata 11 is ESM-only, and Jest's module system cannot import it: it is run in a worker
 * thread, outside Jest's sandbox, as the engine does. The reader a test uses to check what other
 * code wrote, independently of the library that wrote it.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import('music-metadata').then(async (mm) => {
  try {
    const { common, native, format } = await mm.parseFile(workerData, { duration: false, skipCovers: true });
    const flat = {};
    for (const tags of Object.values(native)) for (const t of tags) flat[t.id] = typeof t.value === 'object' ? JSON.stringify(t.value) : String(t.value);
    parentPort.postMessage({ ok: { bpm: common.bpm, native: flat, durationMs: format.duration === undefined ? undefined : Math.round(format.duration * 1000), sampleRate: format.sampleRate, channels: format.numberOfChannels } });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

export function readWithMusicMetadata(file: string): Promise<MusicMetadataRead> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: file });
    worker.once('message', (m: { ok?: MusicMetadataRead; error?: string }) => {
      void worker.terminate();
      if (m.ok) resolve(m.ok);
      else reject(new Error(m.error));
    });
    worker.once('error', reject);
  });
}
