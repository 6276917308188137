import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { keyString } from '../../../src/core/music';
import { keyOfSums } from '../../../src/engine/tonal';
import { type WholeTrack, WholeTrackReader, wholeTrackOf } from '../../../src/engine/track.whole';
import { SAMPLE_RATE, chordProgression, drumPattern } from '../../../measure/audio/signals';
import { concat, encodeWav } from '../../../measure/audio/audio-signals';
import type { DecodeReport } from '../../helpers/decode-child';
import { analyse, tonalOf } from '../../helpers/engine-run';

jest.setTimeout(120_000);

const named = (r: { key: number; mode: number }): string => keyString(r.key, r.mode);

/**
 * A piece in C major whose middle modulates to G major, as a sonata's development or a march's
 * trio does: `outer` seconds of C major (I IV V I), `middle` of G major, `outer` of C major again.
 */
function modulatingPiece(outer: number, middle: number): Float32Array {
  return concat(
    chordProgression({ tonic: 0, mode: 'major', seconds: outer }),
    chordProgression({ tonic: 7, mode: 'major', seconds: middle }),
    chordProgression({ tonic: 0, mode: 'major', seconds: outer }),
  );
}

/** Feeds `channels` to a reader in chunks of `chunk` samples, as a decoder hands them over. */
function read(channels: Float32Array[], chunk: number, wholeWindowSeconds = 45): WholeTrack | undefined {
  const reader = new WholeTrackReader(wholeWindowSeconds);
  for (let at = 0; at < channels[0]!.length; at += chunk) {
    reader.push(
      channels.map((c) => c.subarray(at, Math.min(c.length, at + chunk))),
      SAMPLE_RATE,
    );
  }
  return reader.finish();
}

const middleOf = (x: Float32Array, seconds: number): Float32Array => {
  const n = Math.round(seconds * SAMPLE_RATE);
  const start = Math.floor((x.length - n) / 2);
  return x.subarray(start, start + n);
};

describe('the key of the whole file (WholeTrackReader)', () => {
  const piece = modulatingPiece(40, 30);

  it('when the middle of a piece is in another key, then its window reads that key and the whole file the piece’s', () => {
    expect(named(tonalOf(middleOf(piece, 30)))).toBe('G major');
    const whole = read([piece], 4608);
    expect(whole).toBeDefined();
    expect(named(keyOfSums(whole!.sustained, whole!.bass))).toBe('C major');
  });

  it('when every sample is read, then the sums cover the whole file, its last part block included', () => {
    expect(read([piece], 4608)!.seconds).toBeCloseTo(110, 1);
  });

  it('when the file is no longer than its window, then nothing is measured (the window is the whole file)', () => {
    const clip = chordProgression({ tonic: 0, mode: 'major', seconds: 40 });
    expect(read([clip], 4608)).toBeUndefined();
    // A window set longer than 45 s holds more of a file.
    expect(read([piece], 4608, 120)).toBeUndefined();
    expect(read([piece], 4608, 100)).toBeDefined();
  });

  it('when the decoder hands over other chunk sizes or the same signal on two channels, then the sums are the same', () => {
    const a = read([piece], 4608)!;
    const b = read([piece], 100_000)!;
    const c = read([piece, piece], 1152)!;
    for (const other of [b, c]) {
      for (let k = 0; k < 12; k++) {
        expect(other.sustained[k]).toBeCloseTo(a.sustained[k]!, 6);
        expect(other.bass[k]).toBeCloseTo(a.bass[k]!, 6);
      }
    }
  });

  it('when the whole file is at hand already (a decode that kept every sample), then its sums are the stream’s', () => {
    const streamed = read([piece], 4608)!;
    const atHand = wholeTrackOf(piece, SAMPLE_RATE);
    expect(atHand.seconds).toBeCloseTo(streamed.seconds, 6);
    for (let k = 0; k < 12; k++) {
      expect(atHand.sustained[k]).toBeCloseTo(streamed.sustained[k]!, 6);
      expect(atHand.bass[k]).toBeCloseTo(streamed.bass[k]!, 6);
    }
  });

  it('when the engine is given the whole file’s chroma, then the track’s key and confidence are read there and the rest from the window', () => {
    const window = middleOf(piece, 30);
    const alone = analyse(window);
    const wholeTrack = read([piece], 4608)!;
    const withTrack = analyse(window, { wholeTrack, durationSeconds: piece.length / SAMPLE_RATE, offsetSeconds: 40 });
    expect(named(alone)).toBe('G major');
    expect(named(withTrack)).toBe('C major');
    expect(withTrack.confidence.key).toBeCloseTo(keyOfSums(wholeTrack.sustained, wholeTrack.bass).keyConfidence, 3);
    // Everything else is the window's.
    expect(withTrack.tempo).toBe(alone.tempo);
    expect(withTrack.energy).toBe(alone.energy);
  });
});

describe('the tempo of the whole file (WholeTrackReader)', () => {
  // A 4/4 groove at 100 BPM for 70 s: two full 30 s blocks and a 10 s tail.
  const groove = drumPattern({ bpm: 100, seconds: 70, beatsPerBar: 4, seed: 5 });

  it('when a groove plays through a file, then every full block names its tempo first and a tail under 15 s names none', () => {
    const whole = wholeTrackOf(groove, SAMPLE_RATE);
    expect(whole.seconds).toBeCloseTo(70, 1);
    expect(whole.tempi).toHaveLength(2);
    for (const block of whole.tempi) {
      expect(Math.abs(block[0]!.bpm - 100)).toBeLessThan(4);
      // Most probable first, each a probability, the unlikely left out.
      for (let i = 1; i < block.length; i++) expect(block[i]!.probability).toBeLessThanOrEqual(block[i - 1]!.probability);
      for (const c of block) expect(c.probability).toBeGreaterThanOrEqual(0.01);
    }
  });

  it('when the stream is read in chunks, then the blocks’ tempi are those of the samples at hand', () => {
    expect(read([groove, groove], 4608)!.tempi).toEqual(wholeTrackOf(groove, SAMPLE_RATE).tempi);
  });
});

describe('the key of the whole file, through the decoder', () => {
  let dir: string;
  let reports: Map<string, DecodeReport>;

  /** A 16-bit stereo WAV of a mono signal (encodeWav); `streamed`: its sizes 0xFFFFFFFF, as a writer that never learnt the length leaves them. */
  function wav(signal: Float32Array, streamed = false): Uint8Array {
    const out = encodeWav([signal, signal], SAMPLE_RATE);
    if (streamed) {
      const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
      view.setUint32(4, 0xffffffff, true);
      view.setUint32(40, 0xffffffff, true);
    }
    return out;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'track-key-'));
    await writeFile(path.join(dir, 'piece.wav'), wav(modulatingPiece(40, 30)));
    // No length to plan by: the decoder keeps every sample, and the key is read from them.
    await writeFile(path.join(dir, 'streamed.wav'), wav(modulatingPiece(40, 30), true));
    await writeFile(path.join(dir, 'clip.wav'), wav(chordProgression({ tonic: 7, mode: 'major', seconds: 30 })));
    const child = path.join(__dirname, '../../helpers/decode-child.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, path.join(dir, 'piece.wav'), path.join(dir, 'streamed.wav'), path.join(dir, 'clip.wav')], {
      maxBuffer: 1 << 20,
    });
    reports = new Map(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as DecodeReport)
        .map((r) => [path.basename(r.file), r]),
    );
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['piece.wav', 'streamed.wav'])('when %s is longer than its window, then the decoder reads the key of all of it', (file) => {
    const piece = reports.get(file)!;
    expect(piece.error).toBeUndefined();
    expect(piece.durationSeconds).toBeCloseTo(110, 1);
    expect(piece.trackKey).toEqual({ key: 'C major', seconds: expect.closeTo(110, 1) as unknown });
  });

  it('when a file is its own window, then no second reading is made', () => {
    const clip = reports.get('clip.wav')!;
    expect(clip.error).toBeUndefined();
    expect(clip.trackKey).toBeUndefined();
  });
});
