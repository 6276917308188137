import { Arg, Resolver, Root, Subscription } from 'type-graphql';
import { MAX_BATCH_KEYS } from '../../analysis/analysis.service';
import { checkedTrackKey } from '../../core/track-key';
import type { AnalysisEvents } from '../../analysis/events/analysis-events.channel';
import { ANALYSIS_COMPLETED } from '../../core/analysis-events';
import { invalidArgument } from '../../core/errors';
import type { StoredAnalysis } from '../../core/types';
import { TrackAnalysis, trackAnalysisOf } from './analysis.types';
import type { GraphQLContext } from './graphql.context';

/** Keys one subscription may watch: as many as one batch read. */
export const MAX_SUBSCRIPTION_KEYS = MAX_BATCH_KEYS;

/**
 * Subscriptions, over graphql-ws at /graphql (subscriptions.server.ts). analysisCompleted sends
 * the analysis of each watched key once it is stored: at once for a key stored already, else when
 * its analysis completes on any node of the deployment. The subscription completes when every
 * key has been sent.
 */
@Resolver()
export class AnalysisSubscriptionResolver {
  @Subscription(() => TrackAnalysis, {
    description:
      `The analysis of each of these keys (up to ${MAX_SUBSCRIPTION_KEYS}) once it is stored: at once for a key stored already, else when its analysis completes. ` +
      'Completes when every key has been sent. Starts no analysis (ask analysis(trackKey) for that); a failed analysis is not sent (analysisStatus, or a webhook\'s analysis.failed, tells of it). Over WebSocket (graphql-ws) only.',
    subscribe: ({ args, context }) => analysisStream(context as GraphQLContext, (args as { trackKeys: string[] }).trackKeys),
    complexity: ({ args, childComplexity }) => 1 + (Array.isArray(args.trackKeys) ? args.trackKeys.length : 1) * childComplexity,
  })
  analysisCompleted(
    @Root() analysis: StoredAnalysis,
    @Arg('trackKeys', () => [String], { description: `The keys to watch (16 hex characters, either case), 1 to ${MAX_SUBSCRIPTION_KEYS}.` }) trackKeys: string[],
  ): TrackAnalysis {
    void trackKeys;
    return trackAnalysisOf(analysis);
  }
}

/** The stream of one analysisCompleted subscription: listening first, then the keys stored already. */
export async function analysisStream(context: GraphQLContext, trackKeys: readonly string[]): Promise<AsyncIterableIterator<StoredAnalysis>> {
  const events: AnalysisEvents | undefined = context.events;
  if (!events) throw invalidArgument('subscriptions are served over WebSocket (graphql-ws) at /graphql');
  if (trackKeys.length === 0 || trackKeys.length > MAX_SUBSCRIPTION_KEYS) {
    throw invalidArgument(`trackKeys must name 1 to ${MAX_SUBSCRIPTION_KEYS} keys (got ${trackKeys.length})`);
  }
  const keys = [...new Set(trackKeys.map(checkedTrackKey))];
  // Listening before the store is read: an analysis stored in between is heard, and sent once.
  const stream = new AnalysisStream(keys);
  stream.stopWith(
    events.subscribe((event) => {
      if (event.type === ANALYSIS_COMPLETED) stream.push(event.analysis);
    }),
  );
  try {
    for (const stored of await context.analyses.storedMany(keys)) if (stored) stream.push(stored);
  } catch (error) {
    await stream.return();
    throw error;
  }
  return stream;
}

/**
 * The analyses of a set of keys, each sent once, in the order they arrive; done when every key
 * has been sent or the client stops (return), either of which stops the listening.
 */
export class AnalysisStream implements AsyncIterableIterator<StoredAnalysis> {
  private readonly waiting: Set<string>;
  private readonly ready: StoredAnalysis[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private stop: () => void = () => undefined;

  constructor(keys: readonly string[]) {
    this.waiting = new Set(keys);
  }

  /** What stops the listening when the stream ends. */
  stopWith(stop: () => void): void {
    this.stop = stop;
  }

  /** An analysis that arrived: kept if its key is watched and was not sent yet. */
  push(analysis: StoredAnalysis): void {
    if (this.ended || !this.waiting.delete(analysis.trackKey)) return;
    this.ready.push(analysis);
    this.wake?.();
  }

  async next(): Promise<IteratorResult<StoredAnalysis>> {
    for (;;) {
      const analysis = this.ready.shift();
      if (analysis) return { value: analysis, done: false };
      if (this.ended || this.waiting.size === 0) {
        this.end();
        return { value: undefined, done: true };
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  return(): Promise<IteratorResult<StoredAnalysis>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<StoredAnalysis>> {
    this.end();
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StoredAnalysis> {
    return this;
  }

  private end(): void {
    if (!this.ended) {
      this.ended = true;
      this.stop();
    }
    this.wake?.();
  }
}
