import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AppError } from '../../src/core/errors';
import type { AnalysisEngine, AudioFeatures, AudioInput, AudioProbe } from '../../src/core/types';

/**
 * A test double of the engine for tests of the layers above it (HTTP, GraphQL, services): it
 * counts calls and returns features that depend on the bytes it was given, so tests can tell
 * which file was analysed. Production values always come from the real engine.
 */
export class FakeEngine implements AnalysisEngine {
  analyseCalls = 0;
  probeCalls = 0;
  /** Makes analyse slow, to observe coalescing and 202 answers. */
  delayMs = 0;
  /** Makes analyse fail with this error. */
  failWith: AppError | undefined;
  /** Tags by file name (basename); files not listed have none. */
  tags = new Map<string, AudioProbe>();

  async analyse(input: AudioInput): Promise<AudioFeatures> {
    this.analyseCalls++;
    const bytes = 'bytes' in input ? input.bytes : await readFile(input.path);
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failWith) throw this.failWith;
    return featuresFromBytes(bytes);
  }

  async probe(input: AudioInput): Promise<AudioProbe> {
    this.probeCalls++;
    if ('path' in input) return this.tags.get(input.path.split('/').pop()!) ?? {};
    return {};
  }

  async close(): Promise<void> {}
}

/** Deterministic features from bytes: a digest spread over the fields. */
export function featuresFromBytes(bytes: Uint8Array): AudioFeatures {
  const d = createHash('sha256').update(bytes).digest();
  const u = (i: number): number => d[i % d.length]! / 255;
  return {
    durationMs: 1000 + bytes.length,
    tempo: 60 + Math.round(u(0) * 120),
    key: d[1]! % 12,
    mode: d[2]! % 2,
    timeSignature: d[3]! % 2 === 0 ? 4 : 3,
    loudness: -30 + u(4) * 25,
    energy: u(5),
    liveness: u(6),
    danceability: u(7),
    instrumentalness: u(8),
    speechiness: u(9),
    valence: u(10),
    arousal: u(11),
    approachability: u(12),
    engagement: u(13),
    acousticness: u(23),
    mood: { happy: u(14), sad: u(15), relaxed: u(16), aggressive: u(17) },
    confidence: { tempo: u(18), key: u(19), mode: u(20), timeSignature: u(21) },
    timeline: { beats: [{ start: 0.5, duration: 0.5, confidence: u(22) }], bars: [], sections: [] },
    engine: 'fake-engine',
  };
}
