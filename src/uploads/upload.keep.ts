import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** Longest artist or title kept in a file name, characters (the whole name stays far below 255 bytes). */
const PART_MAX = 80;
/** `Name (2).ext` … `Name (99).ext`: past that the file is not kept. */
const MAX_SUFFIX = 99;

/**
 * A file name part that is one name in one folder on every system: path segments (`..` and `.`
 * dropped) joined by `_`, no characters Windows refuses, no control characters, no leading dots (no hidden files, no `..`), trimmed.
 */
export function safePart(value: string, fallback: string): string {
  const cleaned = value
    .split(/[/\\]+/)
    .filter((segment) => !/^\.*$/.test(segment.trim()))
    .join('_')
    // eslint-disable-next-line no-control-regex -- control characters are what it replaces
    .replace(/[\u0000-\u001f\u007f:*?"<>|]+/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const cut = [...cleaned].slice(0, PART_MAX).join('').trim();
  return cut === '' ? fallback : cut;
}

/** `Artist - Track.ext`, each part made safe: the name the library reads back as artist and title. */
export function libraryFileName(artist: string, trackName: string, extension: string, suffix = 1): string {
  const base = `${safePart(artist, 'Unknown Artist')} - ${safePart(trackName, 'Upload')}`;
  return `${base}${suffix > 1 ? ` (${suffix})` : ''}${extension}`;
}

async function sha256Of(file: string): Promise<string> {
  const digest = createHash('sha256');
  await pipeline(createReadStream(file), digest);
  return digest.digest('hex');
}

/**
 * Copies an uploaded file into the library folder as `Artist - Track.ext` and returns its path
 * relative to the folder. The copy is written under a hidden temporary name and then linked to
 * its name, which fails rather than replaces when the name is taken: a different file there is
 * never overwritten (the next free `Artist - Track (2).ext` is used), the same bytes there are
 * not copied again. Undefined when every name up to `(99)` holds other bytes.
 */
export async function keepInLibrary(
  file: string,
  libraryDir: string,
  names: { artist: string; trackName: string; extension: string; sha256: string },
): Promise<string | undefined> {
  await mkdir(libraryDir, { recursive: true });
  const temporary = path.join(libraryDir, `.upload-${randomUUID()}.part`);
  await copyFile(file, temporary);
  try {
    for (let suffix = 1; suffix <= MAX_SUFFIX; suffix++) {
      const name = libraryFileName(names.artist, names.trackName, names.extension, suffix);
      const target = path.resolve(libraryDir, name);
      // The name is one path segment inside the folder (safePart allows no separator): checked all the same.
      if (path.dirname(target) !== path.resolve(libraryDir)) return undefined;
      try {
        await link(temporary, target);
        return name;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if ((await sha256Of(target).catch(() => undefined)) === names.sha256) return name;
      }
    }
    return undefined;
  } finally {
    await rm(temporary, { force: true });
  }
}
