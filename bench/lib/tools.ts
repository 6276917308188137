import { spawnSync } from 'node:child_process';

/**
 * Whether a command-line tool the bench needs (sox, soxi) can be run here: a bench that would
 * call a missing one says what it needs and stops, instead of failing midway on ENOENT.
 */
export function hasCommand(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;
}
