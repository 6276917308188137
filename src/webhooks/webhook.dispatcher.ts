import type { Logger } from '../core/logger';
import { retryDelayMs } from './webhook.schedule';
import type { SecretBox } from './webhook.secrets';
import type { WebhookSender } from './webhook.sender';
import { TEST_EVENT, type WebhookService } from './webhook.service';
import type { AttemptOutcome, DueDelivery, WebhookStore } from './webhook.store';

export interface WebhookDispatcherOptions {
  /** WEBHOOK_MAX_FAILURES: failed attempts in a row after which a webhook is disabled. */
  maxFailures: number;
  /** WEBHOOK_TIMEOUT_MS: a delivery being sent is not taken by another node before this and a margin have passed. */
  timeoutMs: number;
  /** How often the store is asked for due deliveries besides being told of new ones, ms. */
  pollMs?: number;
  /** Deliveries this process sends at once. */
  concurrency?: number;
  now?: () => number;
  /** Uniform in [0, 1): the retries' jitter. */
  random?: () => number;
}

/** Due deliveries read per query. */
const BATCH = 50;
/** Margin of a claim beyond the send timeout, ms. */
const LEASE_MARGIN_MS = 30_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * Sends the recorded deliveries when they are due: at once for new ones, then on the retry
 * schedule (webhook.schedule.ts). Every API node runs one on the same store; each attempt is
 * made by the node that claims the delivery (one conditional update: of several nodes, one
 * wins). A delivery whose node died mid-send is due again once its claim expires, and is sent
 * with the same webhook-id. What is due survives a restart: it is in the store.
 *
 * After `maxFailures` failed attempts in a row, a webhook is disabled with the reason, and its
 * waiting deliveries fail; a success (a test event, for a disabled one) starts the count again.
 */
export class WebhookDispatcher {
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private poll: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts started since this dispatcher was made. */
  private started = 0;
  private again = false;
  private closed = false;

  constructor(
    private readonly store: WebhookStore,
    private readonly service: WebhookService,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly options: WebhookDispatcherOptions,
    private readonly logger: Logger,
  ) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.pollMs = options.pollMs ?? 1000;
    this.concurrency = options.concurrency ?? 8;
  }

  /** Sends what is due now, then keeps looking every pollMs. */
  start(): void {
    if (this.closed || this.poll) return;
    this.poll = setInterval(() => this.kick(), this.pollMs);
    this.poll.unref();
    this.pruner = setInterval(() => {
      this.service.prune().catch((error: unknown) => this.logger.warn({ err: error }, 'webhooks: pruning old deliveries failed'));
    }, PRUNE_EVERY_MS);
    this.pruner.unref();
    this.kick();
  }

  /**
   * Looks for due deliveries soon (new ones were recorded, or an attempt ended and freed a
   * place). Coalesced: one look runs at a time, and another follows it if asked for meanwhile.
   */
  readonly kick = (): void => {
    if (this.closed) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = this.look()
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn({ err: error }, 'webhooks: looking for due deliveries failed; trying again shortly'),
      )
      .finally(() => {
        this.looking = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  };

  /**
   * Sends every delivery due now that this node claims; resolves with how many it attempted, once
   * they have an outcome (the tests' way to move through a schedule).
   */
  async runDue(): Promise<number> {
    const before = this.started;
    for (;;) {
      await this.looking;
      const started = await this.look();
      // Attempts ending kick further looks: wait for those too.
      await Promise.all([...this.inFlight]);
      await this.looking;
      if (started === 0 && this.inFlight.size === 0) return this.started - before;
    }
  }

  /** Stops looking and waits for the attempts under way. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    clearInterval(this.pruner);
    await this.looking;
    await Promise.all([...this.inFlight]);
  }

  /**
   * Claims due deliveries for the free places (at most `concurrency` attempts at once) and starts
   * their attempts without waiting for them: a slow receiver holds up only its own place. Returns
   * how many it started.
   */
  private async look(): Promise<number> {
    let started = 0;
    while (!this.closed) {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0) return started;
      const now = this.now();
      const due = await this.store.due(iso(now), Math.min(BATCH, free));
      if (due.length === 0) return started;
      const leaseUntil = iso(now + this.options.timeoutMs + LEASE_MARGIN_MS);
      const claimed = await Promise.all(due.map((delivery) => this.store.claim(delivery, leaseUntil)));
      for (const [i, delivery] of due.entries()) {
        if (!claimed[i]) continue;
        started++;
        this.started++;
        const attempt: Promise<void> = this.attempt(delivery)
          .catch((error: unknown) => this.logger.warn({ err: error, deliveryId: delivery.id }, 'webhooks: an attempt could not be recorded; it is due again after its claim'))
          .finally(() => {
            this.inFlight.delete(attempt);
            this.kick();
          });
        this.inFlight.add(attempt);
      }
      // All taken by other nodes, or fewer due than asked for: nothing more to claim now.
      if (!claimed.some(Boolean) || due.length < Math.min(BATCH, free)) return started;
    }
    return started;
  }

  /** One attempt of a claimed delivery, and its outcome recorded. */
  private async attempt(delivery: DueDelivery): Promise<void> {
    const { webhook } = delivery;
    const isTest = delivery.event === TEST_EVENT;
    const settle = (outcome: Omit<AttemptOutcome, 'at'>): Promise<void> => this.store.recordAttempt(delivery.id, { ...outcome, at: iso(this.now()) });
    const notSent = (error: string): Promise<void> =>
      settle({ status: 'failed', attempt: delivery.attempt, nextAttemptAt: null, responseStatus: null, durationMs: null, error });

    // Gone with its webhook (deleted), or held back by it (disabled).
    if (!webhook) return notSent('not sent: the webhook was deleted');
    if (webhook.disabled_at !== null && !isTest) return notSent('not sent: the webhook was disabled');
    let secret: string;
    try {
      secret = this.secrets.open(webhook.secret, delivery.webhook_id);
    } catch (error) {
      this.logger.error({ err: error, webhookId: delivery.webhook_id }, 'webhooks: a signing secret cannot be opened (was WEBHOOK_SECRET_KEY changed?)');
      return notSent('not sent: the signing secret cannot be read on this server');
    }

    const attempt = delivery.attempt + 1;
    const result = await this.sender.send({ url: webhook.url, id: delivery.id, timestampS: Math.floor(this.now() / 1000), body: delivery.payload, secret });
    const sent = { attempt, responseStatus: result.status, durationMs: result.durationMs, error: result.error };
    this.logger.debug({ webhookId: delivery.webhook_id, deliveryId: delivery.id, event: delivery.event, attempt, ok: result.ok, status: result.status, ms: result.durationMs }, 'webhook attempt');
    if (result.ok) {
      await settle({ ...sent, status: 'succeeded', nextAttemptAt: null });
      await this.store.recordSuccess(delivery.webhook_id, isTest);
      return;
    }
    // A test says how the receiver answers now: once, and not held against the webhook.
    if (isTest) return settle({ ...sent, status: 'failed', nextAttemptAt: null });

    const failures = await this.store.recordFailure(delivery.webhook_id);
    let disabled = false;
    if (failures >= this.options.maxFailures) {
      disabled = true;
      const reason = `${failures} failed attempts in a row; the last: ${result.error ?? 'failed'}`;
      if (await this.store.disable(delivery.webhook_id, reason, iso(this.now()))) {
        this.logger.warn({ webhookId: delivery.webhook_id, failures }, 'webhook disabled after failing repeatedly');
      }
    }
    const delay = disabled ? undefined : retryDelayMs(attempt, this.random);
    await settle(
      delay === undefined
        ? { ...sent, status: 'failed', nextAttemptAt: null }
        : { ...sent, status: 'retrying', nextAttemptAt: iso(this.now() + delay) },
    );
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();
