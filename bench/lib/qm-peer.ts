/*
 * The second known tool beside the engine's key: the QM key detector (libqm-dsp's GetKeyMode,
 * with the QM Vamp plugin's defaults), through a small host, bench/peers/qm-key.cpp, compiled
 * here on first use where Debian's libqm-dsp-dev is installed (`apt-get install libqm-dsp-dev
 * g++`). The host reads the same 44.1 kHz mono window the engine analyses and names the key the
 * detector held longest. Benchmarks only: the service never runs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const QM_NAME = 'QM key detector (libqm-dsp GetKeyMode, the Vamp plugin’s defaults: 440 Hz, 10-block average and median; the key held longest)';

/** The headers Debian's libqm-dsp-dev installs (its include directory; the library links as -lqm-dsp). */
const QM_INCLUDE = '/usr/include/qm-dsp';
const SOURCE = join(__dirname, '..', 'peers', 'qm-key.cpp');
const BINARY_DIR = join(__dirname, '..', '.cache', 'qm');
const BINARY = join(BINARY_DIR, 'qm-key');

export interface QmKey {
  key: number;
  mode: 0 | 1;
  /** CPU ms of the host process (its user + system time). */
  cpuMs: number;
}

/** User + system CPU of this process's waited-for children, ms (/proc/self/stat: cutime, cstime). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; cutime and cstime are fields 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  return ticks * 10;
}

/**
 * The host, compiled when absent or older than its source. Undefined, with the reason, where the
 * library or a compiler is missing: the benchmark then prints its rows without QM's.
 */
export function qmKeyPeer(): { peer?: QmKeyPeer; missing?: string } {
  if (!existsSync(join(QM_INCLUDE, 'dsp/keydetection/GetKeyMode.h'))) return { missing: 'libqm-dsp-dev is not installed (apt-get install libqm-dsp-dev)' };
  if (!existsSync(BINARY) || statSync(BINARY).mtimeMs < statSync(SOURCE).mtimeMs) {
    mkdirSync(BINARY_DIR, { recursive: true });
    const built = spawnSync('g++', ['-O2', '-std=c++14', `-I${QM_INCLUDE}`, '-o', BINARY, SOURCE, '-lqm-dsp'], { encoding: 'utf8' });
    if (built.error || built.status !== 0) return { missing: `the QM host did not compile: ${built.error?.message ?? built.stderr.trim().split('\n').slice(0, 3).join(' ')}` };
  }
  return { peer: new QmKeyPeer(BINARY) };
}

export class QmKeyPeer {
  constructor(private readonly binary: string) {}

  /** The detector's key of a mono window; undefined where it names none (silence). */
  analyse(samples: Float32Array, sampleRate: number): QmKey | undefined {
    const before = childrenCpuMs();
    const ran = spawnSync(this.binary, [String(sampleRate)], {
      input: Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength),
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (ran.error || ran.status !== 0) throw new Error(`qm-key failed: ${ran.error?.message ?? ran.stderr}`);
    const out = JSON.parse(ran.stdout) as { tonic: number | null; mode: 0 | 1 | null };
    if (out.tonic === null || out.mode === null) return undefined;
    return { key: out.tonic, mode: out.mode, cpuMs: childrenCpuMs() - before };
  }
}
