import { access } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../core/errors';
import type { AudioInput, TrackMetadata } from '../core/types';
import type { AudioSource } from '../sources/source';

/** The audio source of uploaded tracks: a track's locator is its file's SHA-256 in the uploads folder. */
export class UploadSource implements AudioSource {
  readonly name = 'upload';

  constructor(private readonly dir: string) {}

  /** Where the bytes with this hash are held while they are analysed. */
  fileOf(sha256: string): string {
    return path.join(this.dir, sha256);
  }

  async fetchAudio(track: TrackMetadata): Promise<AudioInput> {
    const locator = track.audio?.locator ?? '';
    if (!/^[0-9a-f]{64}$/.test(locator)) throw new AppError('NO_AUDIO_SOURCE', 'this upload names no file');
    const file = this.fileOf(locator);
    try {
      await access(file);
    } catch {
      throw new AppError('NO_AUDIO_SOURCE', 'the uploaded audio is no longer held: upload it again');
    }
    return { path: file };
  }
}
