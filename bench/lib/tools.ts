import { spawnSync } from 'node:child_process';

/**
 * Whether a command-line tool the bench needs (sox, soxi) can be run here: a bench that would
 * call a missing one says what it needs and stops, instead of failing midway on ENOENT.
 */
export function hasCommand(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;
}

/**
 * What this machine's sox cannot read or write of `formats` (file extensions), as the end of a
 * bench's usage line: sox without `libsox-fmt-all` has no Ogg Vorbis or MP3, and would fail on
 * the first such file. Empty when it has them all, or when sox itself is missing (which the
 * usage line says already).
 */
export function soxFormatsLacking(formats: readonly string[]): string {
  const help = spawnSync('sox', ['-h'], { encoding: 'utf8' });
  if (help.error !== undefined) return '';
  const known = new Set((/^AUDIO FILE FORMATS:(.*)$/m.exec(`${help.stdout}`)?.[1] ?? '').trim().split(/\s+/));
  const lacks = formats.filter((f) => !known.has(f.toLowerCase()));
  return lacks.length > 0 ? `; this sox has no ${lacks.join(' or ')}: apt-get install libsox-fmt-all` : '';
}

/**
 * A fit's `--weight` pairs (`<set>=<w>`, w > 0) as each set's weight; throws naming the first bad
 * pair. A set not named weighs 1.
 */
export function setWeightsOf(pairs: readonly string[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const pair of pairs) {
    const [name, w] = pair.split('=');
    if (!name || !(Number(w) > 0)) throw new Error(`--weight ${pair}: expected <set>=<positive number>`);
    weights.set(name, Number(w));
  }
  return weights;
}

/**
 * A flag whose file is optional (`--write [<file>]`): absent, undefined; given without a file (the
 * next argument missing or another flag), `fallback`. `at` is the file's index in `args` when one
 * was given, so that the caller leaves it out of its positional arguments.
 */
export function optionalFileFlag(args: readonly string[], flag: string, fallback: string): { file?: string; at?: number } {
  const i = args.indexOf(flag);
  if (i < 0) return {};
  const next = args[i + 1];
  return next !== undefined && !next.startsWith('--') ? { file: next, at: i + 1 } : { file: fallback };
}
