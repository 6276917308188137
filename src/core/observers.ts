/*
 * What operations measure, as interfaces the measured code calls: the metrics of src/ops
 * implement them, and the services, caches and queues that report through them import nothing
 * of ops.
 */

/** Counts what a cache does, for the hit-ratio metric. */
export interface CacheObserver {
  hit(namespace: string): void;
  miss(namespace: string): void;
  error(namespace: string): void;
}

/** Jobs not finished yet, by state (the queue-depth metric). */
export interface JobCounts {
  /** Submitted and not started (waiting, delayed or prioritised on BullMQ). */
  waiting: number;
  active: number;
}

/** A finished HTTP request, as the request metrics label it. */
export interface HttpObservation {
  method: string;
  /** The route template (never the raw path: keys in paths would explode the labels). */
  route: string;
  status: number;
  seconds: number;
}
