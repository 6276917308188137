import { spawnSync } from 'node:child_process';

/**
 * Whether a command-line tool the bench needs (sox, soxi) can be run here: a bench that would
 * call a missing one says what it needs and stops, instead of failing midway on ENOENT.
 */
export function hasCommand(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;
}

/**
 * The file formats (extensions) of `formats` that this machine's sox cannot read or write: sox
 * without `libsox-fmt-all` (or `libsox-fmt-mp3`) has no Ogg Vorbis or MP3, and fails on the
 * first such file. All of them when sox itself is missing.
 */
export function soxLacks(formats: readonly string[]): string[] {
  const help = spawnSync('sox', ['-h'], { encoding: 'utf8' });
  const line = help.error === undefined ? /^AUDIO FILE FORMATS:(.*)$/m.exec(`${help.stdout}`)?.[1] : undefined;
  const known = new Set((line ?? '').trim().split(/\s+/));
  return formats.filter((f) => !known.has(f.toLowerCase()));
}
