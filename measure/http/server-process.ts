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
  options: { args?: string[]; env?: Record<string, string>; stdin?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...(options.args ?? [])], {
    env: { ...process.env, ...options.env },
    // stdin piped when the caller talks to the script (bench/http.ts's memory probes).
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'inherit'],
  });
  const stdout = child.stdout!;
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /READY (\d+)([^\n]*)\n/.exec(out);
      if (!m) return;
      // Later output (a server's request log) is not kept here; it is still read, so it never blocks.
      stdout.off('data', onData);
      stdout.resume();
      resolve({ child, port: Number(m[1]), ready: m[2]!.split(' ').filter((w) => w.length > 0) });
    };
    stdout.on('data', onData);
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
