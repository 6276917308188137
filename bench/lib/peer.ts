/*
 * The known tool every accuracy figure is compared with: essentia.js's RhythmExtractor2013
 * (multifeature beat tracker, its default range 40-208 BPM) and KeyExtractor (its defaults:
 * HPCP, bgate profile), run on the same decoded window as the engine, and on the whole file
 * where the engine reads the whole file (a file longer than its window: its key, and its
 * tempo's level).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Essentia, EssentiaWASM, type EssentiaVector } from 'essentia.js';
import { pitchClassOf } from '../../src/core/music';

export interface PeerResult {
  tempo: number;
  key: number;
  mode: 0 | 1;
  /** CPU ms of the two calls. */
  cpuMs: number;
}

export const PEER_NAME = 'essentia.js RhythmExtractor2013 multifeature + KeyExtractor';

/** essentia.js with its process-wide error handlers removed (as the engine's loader does). */
function loadPeer(): Essentia {
  const exceptions = new Set(process.listeners('uncaughtException'));
  const rejections = new Set(process.listeners('unhandledRejection'));
  const essentia = new Essentia(EssentiaWASM);
  for (const l of process.listeners('uncaughtException')) if (!exceptions.has(l)) process.removeListener('uncaughtException', l);
  for (const l of process.listeners('unhandledRejection')) if (!rejections.has(l)) process.removeListener('unhandledRejection', l);
  return essentia;
}

/**
 * Runs the peer on 44.1 kHz mono windows. With a cache folder, results are kept per window
 * (hash of the samples), so that repeated runs comparing changes to the engine skip the ~3 s
 * per clip the peer takes.
 */
export class Peer {
  private essentia: Essentia | undefined;

  constructor(private readonly cacheDir?: string) {
    if (cacheDir) mkdirSync(cacheDir, { recursive: true });
  }

  /** `whole`: what both extractors read instead of the window (the whole file, 44.1 kHz mono). */
  analyse(samples: Float32Array, whole?: Float32Array): PeerResult {
    const hash = createHash('sha1').update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
    if (whole) hash.update('whole').update(new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength));
    const id = hash.digest('hex');
    const cached = this.cacheDir ? join(this.cacheDir, `peer-${id}.json`) : undefined;
    if (cached && existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as PeerResult;
    const essentia = (this.essentia ??= loadPeer());
    const cpu0 = process.cpuUsage();
    const vector = essentia.arrayToVector(whole ?? samples) as EssentiaVector;
    try {
      const rhythm = essentia.RhythmExtractor2013(vector, 208, 'multifeature', 40) as {
        bpm: number;
        ticks: { delete(): void };
        estimates: { delete(): void };
        bpmIntervals: { delete(): void };
      };
      rhythm.ticks.delete();
      rhythm.estimates.delete();
      rhythm.bpmIntervals.delete();
      const key = essentia.KeyExtractor(vector) as { key: string; scale: string };
      const cpu = process.cpuUsage(cpu0);
      const result: PeerResult = {
        tempo: rhythm.bpm,
        key: pitchClassOf(key.key) ?? 0,
        mode: key.scale === 'major' ? 1 : 0,
        cpuMs: (cpu.user + cpu.system) / 1000,
      };
      if (cached) writeFileSync(cached, JSON.stringify(result));
      return result;
    } finally {
      (vector as { delete(): void }).delete();
    }
  }
}
