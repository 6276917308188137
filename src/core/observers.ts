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

/**
 * Told when a caller's request needs an analysis that is not stored yet (it starts one, or joins
 * one running): usage counts analyses per API key from it, and webhooks remember who to tell
 * when the analysis completes. Called on the request's path: keep it cheap. A promise it returns
 * is waited for before the analysis is started or joined (webhooks record the interest first, so
 * that the analysis cannot end before it is in the store); it must not reject.
 */
export interface AnalysisRequestListener {
  analysisRequested(trackKey: string, requesterId: string): void | Promise<void>;
}

/**
 * Told of every request made with a valid API key (known, not revoked, not expired), before the
 * rate limit decides on it: usage counts requests per key from it. Called synchronously on the request's path,
 * once per HTTP request: keep it cheap.
 */
export interface ApiRequestListener {
  apiRequest(keyId: string): void;
}

/** Uploads counted for one API key on the current UTC day. */
export interface UploadTally {
  uploads: number;
  bytes: number;
}

/**
 * Counts uploads and the bytes received for them per API key per UTC day (usage implements it),
 * and tells what a key has used today, for the upload quota. `uploadStarted` and
 * `uploadReceived` are called on the request's path, per upload and per chunk: keep them cheap.
 */
export interface UploadUsage {
  /** Today's uploads of the key: stored, plus counted on this node and not stored yet. */
  uploadsToday(keyId: string): Promise<UploadTally>;
  uploadStarted(keyId: string): void;
  uploadReceived(keyId: string, bytes: number): void;
}
