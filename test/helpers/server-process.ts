import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** The words after the port on its READY line (bench/http/server.ts gives its trackKey there). */
  ready: string[];
}

/**
 * Runs a benchmark's server script (TypeScript, through tsx) in a process of its own, so the load
 * generator does not share its event loop, and resolves once the script prints
 * "READY <port> [words…]". Rejects, naming it `name`, if it exits first. Its stderr is this one's.
 */
export function startServerProcess(
  name: string,
  script: string,
  options: { args?: string[]; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...(options.args ?? [])], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\d+)([^\n]*)\n/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), ready: m[2]!.split(' ').filter((w) => w.length > 0) });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

/** Stops server processes (SIGTERM) and waits until each has exited. */
export async function stopServerProcesses(servers: readonly ServerProcess[]): Promise<void> {
  await Promise.all(
    servers.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}
