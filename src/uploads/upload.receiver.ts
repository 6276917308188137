import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AudioFormat } from '../core/audio-formats';
import { AppError, invalidArgument } from '../core/errors';
import { sniffFormat } from '../engine/sniff';
import type { ChunkMeter } from './upload.quota';

/** A body written to a temporary file, with what was learned of it on the way. */
export interface ReceivedFile {
  /** The temporary file; the caller removes it. */
  path: string;
  bytes: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

/** How much of a file's start the sniffing reads: a tag with cover art before the first frame fits. */
const SNIFF_BYTES = 1024 * 1024;

export const tooLarge = (maxBytes: number): AppError =>
  new AppError('PAYLOAD_TOO_LARGE', `the audio is larger than this server accepts (UPLOAD_MAX_BYTES = ${maxBytes} bytes)`);

/**
 * Streams a body to a new file in `dir`, hashing and counting as the bytes come: past `maxBytes`
 * the stream is destroyed (nothing more is read) and PAYLOAD_TOO_LARGE thrown. Whatever ends it
 * (the limit, the client going away, a disk error), a partial file is removed before the error
 * is passed on. `meter` is told of each chunk (the upload quota) and may stop the upload with an error.
 */
export async function receiveToFile(input: Readable, dir: string, maxBytes: number, meter?: ChunkMeter): Promise<ReceivedFile> {
  // An input that failed before it got here (a fetched body whose connection broke while the
  // caller was busy) emits nothing more: its listeners below would wait forever.
  if (input.errored || (input.destroyed && !input.readableEnded)) throw invalidArgument('the upload was cut short before its end', { cause: input.errored ?? undefined });
  const file = path.join(dir, `${randomUUID()}.part`);
  const digest = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        done(tooLarge(maxBytes));
        return;
      }
      const refused = meter?.(chunk.length);
      if (refused) {
        done(refused);
        return;
      }
      digest.update(chunk);
      done(null, chunk);
    },
  });
  // The input is never destroyed here: past the limit it is only let go of, so that the edge can
  // still answer (413) on its connection before closing it.
  const cutShort = (): void => {
    if (!input.readableEnded) counter.destroy(new Error('the input ended early'));
  };
  input.on('close', cutShort);
  input.on('error', cutShort);
  input.pipe(counter);
  try {
    await pipeline(counter, createWriteStream(file, { flags: 'wx' }));
  } catch (error) {
    input.unpipe(counter);
    input.pause();
    await rm(file, { force: true });
    if (error instanceof AppError) throw error;
    throw invalidArgument('the upload was cut short before its end', { cause: error });
  } finally {
    // The error listener stays: an input failing later must not become an unhandled error.
    input.off('close', cutShort);
  }
  return { path: file, bytes, sha256: digest.digest('hex') };
}

/** The container a received file is, by its first bytes (what its name or Content-Type says does not count). */
export async function sniffFile(file: string): Promise<AudioFormat | undefined> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(new Uint8Array(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return sniffFormat(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
