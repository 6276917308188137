import type { JobCounts } from '../../core/observers';
import type { StoredAnalysis, TrackMetadata } from '../../core/types';

export type JobState = 'queued' | 'processing';

export interface JobStatus {
  state: JobState;
  /** Jobs ahead of this one (0 when it is being processed). */
  queuePosition: number;
}

export type { JobCounts } from '../../core/observers';

/**
 * Runs analyses, one per trackKey however many callers ask at once: a second submit of a key
 * whose job is pending joins it. In-process (embedded) or on BullMQ workers (scale-out).
 */
export interface AnalysisJobs {
  /** Resolves with the stored analysis once the job for `track.trackKey` has finished. */
  submit(track: TrackMetadata): Promise<StoredAnalysis>;
  /** The state of a pending job, or undefined when none is pending for the key. */
  status(trackKey: string): Promise<JobStatus | undefined>;
  /** Jobs not finished yet. */
  counts(): Promise<JobCounts>;
  /** Throws when the jobs' backend cannot be reached (readiness); in-process jobs always can. */
  ping(): Promise<void>;
  /** Stops taking jobs and waits for running ones. */
  close(): Promise<void>;
}

/** The job body: fetch audio, analyse, store. Shared by the in-process runner and workers. */
export type AnalysisTask = (track: TrackMetadata) => Promise<StoredAnalysis>;
