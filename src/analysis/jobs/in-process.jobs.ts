import type { StoredAnalysis, TrackMetadata } from '../../core/types';
import type { AnalysisJobs, AnalysisTask, JobCounts, JobStatus } from './jobs';

/**
 * The embedded job runner: jobs run in this process (the engine's worker threads do the heavy
 * part), coalesced per trackKey. At most `concurrency` jobs run at once; the rest wait in order.
 * Closing lets the running jobs finish and rejects those still waiting (a job stores its analysis
 * only when it completes, so a rejected one leaves nothing behind and is asked for again later).
 */
export class InProcessJobs implements AnalysisJobs {
  private readonly pending = new Map<string, { promise: Promise<StoredAnalysis>; started: boolean }>();
  private readonly waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private running = 0;
  private closed = false;

  constructor(
    private readonly task: AnalysisTask,
    private readonly concurrency: number,
  ) {}

  submit(track: TrackMetadata): Promise<StoredAnalysis> {
    const existing = this.pending.get(track.trackKey);
    if (existing) return existing.promise;
    if (this.closed) return Promise.reject(new Error('the job runner is closed'));
    const entry = { promise: undefined as unknown as Promise<StoredAnalysis>, started: false };
    entry.promise = this.schedule(async () => {
      entry.started = true;
      return this.task(track);
    }).finally(() => this.pending.delete(track.trackKey));
    this.pending.set(track.trackKey, entry);
    return entry.promise;
  }

  async status(trackKey: string): Promise<JobStatus | undefined> {
    const entry = this.pending.get(trackKey);
    if (!entry) return undefined;
    if (entry.started) return { state: 'processing', queuePosition: 0 };
    let ahead = 0;
    for (const [key, e] of this.pending) {
      if (key === trackKey) break;
      if (!e.started) ahead++;
    }
    return { state: 'queued', queuePosition: ahead };
  }

  async counts(): Promise<JobCounts> {
    let active = 0;
    for (const e of this.pending.values()) if (e.started) active++;
    return { waiting: this.pending.size - active, active };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('the job runner is closed'));
    await Promise.allSettled([...this.pending.values()].map((e) => e.promise));
  }

  private async schedule<T>(run: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.running++;
    try {
      return await run();
    } finally {
      this.running--;
      this.waiting.shift()?.resolve();
    }
  }
}
