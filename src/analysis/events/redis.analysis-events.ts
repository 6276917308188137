import { randomUUID } from 'node:crypto';
import { ANALYSIS_COMPLETED, ANALYSIS_FAILED, ANALYSIS_REPLACED, type AnalysisEvent, type AnalysisEventListener } from '../../core/analysis-events';
import { ThrottledWarning, type Logger } from '../../core/logger';
import type { SharedRedis } from '../../ops/redis';
import { LocalAnalysisEvents, type AnalysisEvents } from './analysis-events.channel';

/** What travels on the channel: the event and the process that published it. */
interface Envelope {
  origin: string;
  event: AnalysisEvent;
}

/**
 * Analysis events across the processes of a deployment, on Redis pub/sub (channel
 * `<REDIS_PREFIX>:analysis-events`). A publish tells this process's listeners and waits for
 * them, then PUBLISHes the event; every other process's subscriber connection hears it and tells
 * its listeners as 'remote' (a process skips its own messages, which it has already delivered).
 *
 * Pub/sub keeps nothing: a process that is disconnected when an event is published does not
 * hear it. Webhooks do not depend on that (the process that ran the analysis records the
 * deliveries in the store itself, before publishing); subscriptions are live by nature.
 */
export class RedisAnalysisEvents implements AnalysisEvents {
  private readonly local: LocalAnalysisEvents;
  private readonly channel: string;
  private readonly origin = randomUUID();
  private readonly warning: ThrottledWarning;

  /** `redis` is the process's shared connections (its owner closes them). */
  constructor(private readonly redis: SharedRedis, prefix: string, private readonly logger: Logger) {
    this.local = new LocalAnalysisEvents(logger);
    this.channel = `${prefix}:analysis-events`;
    this.warning = new ThrottledWarning(logger);
    redis.subscribe(this.channel, (message) => this.receive(message)).catch((error: unknown) => this.warning.warn({ err: error }, 'analysis events: subscribing failed'));
  }

  async publish(event: AnalysisEvent): Promise<void> {
    await this.local.tell(event, 'local');
    const envelope: Envelope = { origin: this.origin, event };
    try {
      await this.redis.commands.publish(this.channel, JSON.stringify(envelope));
    } catch (error) {
      this.warning.warn({ err: error, event: event.type, trackKey: event.trackKey }, 'analysis events: publishing failed; other nodes miss this event');
    }
  }

  subscribe(listener: AnalysisEventListener): () => void {
    return this.local.subscribe(listener);
  }

  private receive(message: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      this.logger.warn({ channel: this.channel }, 'analysis events: a message that is not JSON was ignored');
      return;
    }
    if (envelope.origin === this.origin) return;
    const event = envelope.event as Partial<AnalysisEvent> | undefined;
    if (!event || (event.type !== ANALYSIS_COMPLETED && event.type !== ANALYSIS_FAILED && event.type !== ANALYSIS_REPLACED) || typeof event.trackKey !== 'string' || typeof event.id !== 'string') {
      this.logger.warn({ channel: this.channel }, 'analysis events: a message of another shape was ignored');
      return;
    }
    void this.local.tell(event as AnalysisEvent, 'remote');
  }

  async close(): Promise<void> {
    await this.local.close();
  }
}
