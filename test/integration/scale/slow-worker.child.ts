import 'reflect-metadata';
import type { AudioFeatures, AudioInput } from '../../../src/core/types';
import { loadConfig } from '../../../src/config';
import { createContainer } from '../../../src/container';
import { FakeEngine } from '../../../measure/http/fake-engine';

/**
 * A worker process (the `npm run worker` role, through the same container) whose engine takes
 * SLOW_ENGINE_MS per file and says on stdout when it starts one, so a test can kill it mid-job.
 */
class AnnouncingEngine extends FakeEngine {
  override async analyse(input: AudioInput): Promise<AudioFeatures> {
    process.stdout.write(`ANALYZING ${'path' in input ? input.path : 'bytes'}\n`);
    return super.analyse(input);
  }
}

async function main(): Promise<void> {
  const engine = new AnnouncingEngine();
  engine.delayMs = Number(process.env.SLOW_ENGINE_MS ?? 0);
  const container = await createContainer(loadConfig(), { role: 'worker', engine });
  await container.start();
  process.stdout.write('READY\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
