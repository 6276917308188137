import type { Logger } from '../core/logger';

export interface FlushTask {
  name: string;
  run(): Promise<void>;
}

/**
 * Runs flushes (usage counts, last uses of keys) every `everyMs`, one round at a time, and a
 * last round when closed. A failing task is logged and tried again next round: what it had
 * to write stays in memory until then.
 */
export class FlushSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly tasks: readonly FlushTask[],
    private readonly everyMs: number,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.everyMs).unref();
  }

  /** One round now (after the one running, if any). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    this.running = this.round().finally(() => {
      this.running = undefined;
    });
    await this.running;
  }

  /** Stops the timer and runs a last round. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async round(): Promise<void> {
    for (const task of this.tasks) {
      try {
        await task.run();
      } catch (error) {
        this.logger.warn({ err: error }, `${task.name}: not written; trying again at the next flush`);
      }
    }
  }
}
