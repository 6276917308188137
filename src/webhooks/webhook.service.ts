import { randomBytes } from 'node:crypto';
import { toContractAnalysis } from '../analysis/contract';
import { isAdmin, type Principal } from '../auth/api-keys';
import { ANALYSIS_COMPLETED, ANALYSIS_FAILED, ANALYSIS_REPLACED, type AnalysisEnded, type AnalysisEvent, type EventOrigin } from '../core/analysis-events';
import { AppError, invalidArgument } from '../core/errors';
import { ThrottledWarning, type Logger } from '../core/logger';
import type { AnalysisRequestListener } from '../core/observers';
import { guardConnection } from '../db/database';
import { OutboundRefusedError, type OutboundGuard } from '../net/outbound.guard';
import { newSigningSecret, type SecretBox } from './webhook.secrets';
import type { DeliveryRow, DeliveryStatus, WebhookRow, WebhookStore } from './webhook.store';
export { MAX_DELIVERY_BATCH } from './webhook.store';

/** The events a webhook can ask for. */
export const WEBHOOK_EVENTS = [ANALYSIS_COMPLETED, ANALYSIS_FAILED] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event `test` sends, to every webhook whatever its events. */
export const TEST_EVENT = 'webhook.test';

/** Webhooks one API key may have. */
export const MAX_WEBHOOKS_PER_KEY = 10;
/** Longest webhook URL accepted, characters. */
export const MAX_URL_LENGTH = 2048;
/** Deliveries a log lists by default, and at most. */
export const DEFAULT_DELIVERIES = 20;
export const MAX_DELIVERIES = 100;
/** Finished deliveries are kept this long for the log, and an interest in an analysis that never ended this long. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
export const INTEREST_RETENTION_MS = 7 * 24 * 3600_000;
/** The host name of a new webhook must resolve within this, ms. */
const RESOLVE_TIMEOUT_MS = 5000;
/**
 * An event heard from another process is checked for deliveries left unrecorded this long
 * after (the process that ran the analysis records them before it announces it), ms.
 */
export const SAFETY_NET_MS = 5000;

/** A webhook as the API shows it (never its secret). */
export interface Webhook {
  id: string;
  /** The API key that owns it. */
  keyId: string;
  url: string;
  events: string[];
  createdAt: string;
  disabledAt: string | null;
  disabledReason: string | null;
  consecutiveFailures: number;
}

/** One event to one webhook, as the delivery log shows it. */
export interface WebhookDelivery {
  /** The webhook-id header the receiver got (the same on every attempt). */
  id: string;
  webhookId: string;
  event: string;
  /** Attempts made so far. */
  attempt: number;
  status: DeliveryStatus;
  /** The receiver's HTTP status at the last attempt. */
  responseStatus: number | null;
  durationMs: number | null;
  /** Why the last attempt failed. */
  error: string | null;
  createdAt: string;
  /** When it is tried next, while it is pending or retrying. */
  nextAttemptAt: string | null;
}

export interface WebhookServiceOptions {
  /** The clock (ms since the epoch); tests pass their own. */
  now?: () => number;
}

/**
 * Webhooks of API keys: made, listed, deleted and tested by their key (an admin key sees every
 * key's), and the deliveries of the analysis events to them.
 *
 * Which analyses a key's webhooks hear of: those the key asked for while they were not stored
 * yet. AnalysisService tells this service of each such request (it is an
 * AnalysisRequestListener); the interest is kept in the store, and when the analysis ends (an
 * AnalysisEvent, heard by every process of the deployment) a delivery is recorded for each
 * enabled webhook of each interested key that asked for that event. (event, webhook) is unique
 * in the store, so however many processes hear one event, each webhook gets one delivery. The
 * dispatchers (webhook.dispatcher.ts) send what is recorded.
 */
export class WebhookService implements AnalysisRequestListener {
  private readonly now: () => number;
  private readonly writes = new Set<Promise<void>>();
  private readonly fanOuts = new Set<Promise<void>>();
  private readonly safetyNets = new Set<NodeJS.Timeout>();
  private closed = false;
  private readonly deliveryListeners: (() => void)[] = [];
  private readonly warning: ThrottledWarning;

  constructor(
    private readonly store: WebhookStore,
    private readonly secrets: SecretBox,
    private readonly guard: OutboundGuard,
    private readonly logger: Logger,
    private readonly options: WebhookServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.warning = new ThrottledWarning(logger);
  }

  /** Tells `listener` whenever deliveries are recorded: this process's dispatcher, when it runs one (made after this service). */
  onDeliveries(listener: () => void): void {
    this.deliveryListeners.push(listener);
  }

  private deliveriesRecorded(): void {
    for (const listener of this.deliveryListeners) listener();
  }

  /** Makes a webhook for the principal's key; the secret is in this answer only. */
  async create(principal: Principal, input: { url: string; events?: readonly string[] | null | undefined }): Promise<{ webhook: Webhook; secret: string }> {
    const url = checkedUrl(input.url);
    const events = checkedEvents(input.events);
    await this.checkReachable(url);
    return guardConnection(async () => {
      if ((await this.store.countWebhooks(principal.id)) >= MAX_WEBHOOKS_PER_KEY) {
        throw invalidArgument(`a key may have at most ${MAX_WEBHOOKS_PER_KEY} webhooks; delete one first`);
      }
      const id = `wh_${randomBytes(12).toString('hex')}`;
      const secret = newSigningSecret();
      const row: WebhookRow = {
        id,
        key_id: principal.id,
        url: url.href,
        events: JSON.stringify(events),
        secret: this.secrets.seal(secret, id),
        created_at: this.iso(),
        disabled_at: null,
        disabled_reason: null,
        consecutive_failures: 0,
      };
      await this.store.insertWebhook(row);
      this.logger.info({ webhookId: id, keyId: principal.id, events }, 'webhook created');
      return { webhook: webhookOf(row), secret };
    });
  }

  /** The principal's webhooks (every key's for an admin), oldest first. */
  async list(principal: Principal): Promise<Webhook[]> {
    const rows = await guardConnection(() => this.store.listWebhooks(isAdmin(principal) ? undefined : principal.id));
    return rows.map(webhookOf);
  }

  /** Deletes a webhook of the principal's (any, for an admin) with its deliveries. */
  async delete(principal: Principal, id: string): Promise<void> {
    await this.owned(principal, id);
    await guardConnection(() => this.store.deleteWebhook(id));
    this.logger.info({ webhookId: id, keyId: principal.id }, 'webhook deleted');
  }

  /**
   * Records a `webhook.test` event to the webhook and has it sent now. A test is tried once (no
   * retries) and does not count toward disabling; a successful one enables a disabled webhook
   * again.
   */
  async test(principal: Principal, id: string): Promise<WebhookDelivery> {
    const webhook = await this.owned(principal, id);
    const at = this.iso();
    const body = JSON.stringify({ type: TEST_EVENT, timestamp: at, data: { webhookId: webhook.id } });
    const row = deliveryRow(webhook.id, `evt_${randomBytes(16).toString('hex')}`, TEST_EVENT, body, at);
    await guardConnection(() => this.store.insertDeliveries([row]));
    this.deliveriesRecorded();
    return deliveryOf(row);
  }

  /** The newest deliveries of a webhook of the principal's. */
  async deliveries(principal: Principal, id: string, limit = DEFAULT_DELIVERIES): Promise<WebhookDelivery[]> {
    const webhook = await this.owned(principal, id);
    return (await this.recentDeliveriesOf([webhook.id], limit))[0]!;
  }

  /**
   * The newest deliveries of each of several webhooks this service listed to the caller, in the
   * order of `webhookIds`, read in one query (a page listing webhooks with their logs).
   */
  async recentDeliveriesOf(webhookIds: readonly string[], limit = DEFAULT_DELIVERIES): Promise<WebhookDelivery[][]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERIES) {
      throw invalidArgument(`the number of deliveries must be a whole number from 1 to ${MAX_DELIVERIES}`);
    }
    const rows = await guardConnection(() => this.store.deliveries(webhookIds, limit));
    const byWebhook = new Map<string, WebhookDelivery[]>(webhookIds.map((id) => [id, []]));
    for (const row of rows) byWebhook.get(row.webhook_id)?.push(deliveryOf(row));
    return webhookIds.map((id) => byWebhook.get(id)!);
  }

  /**
   * AnalysisRequestListener: the key asked for an analysis not stored yet. Kept in the store
   * before the analysis starts (the request waits for the write); a failure is logged, and the
   * request goes on without it.
   */
  analysisRequested(trackKey: string, requesterId: string): Promise<void> {
    const write = this.store.recordInterest(trackKey, requesterId, this.iso()).catch((error: unknown) => {
      this.warning.warn({ err: error, trackKey }, 'webhooks: an analysis request could not be recorded; its webhooks will not hear of it');
    });
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
    return write;
  }

  /**
   * An AnalysisEventListener. Heard in the process that ran the analysis: its deliveries are
   * recorded now, and the event is told to the other processes once they are. Heard from
   * another process: this process's dispatcher looks for them at once, and SAFETY_NET_MS later
   * the event's deliveries are recorded here too if that process could not (it died, or its
   * write failed): (event, webhook) being unique, a delivery recorded twice is recorded once.
   */
  readonly analysisEnded = (event: AnalysisEvent, origin: EventOrigin): Promise<void> | undefined => {
    // A replaced analysis answers no request: webhooks are told of analyses that end (README, Re-analysis).
    if (this.closed || event.type === ANALYSIS_REPLACED) return undefined;
    if (origin === 'local') return this.recording(event);
    this.deliveriesRecorded();
    const timer = setTimeout(() => {
      this.safetyNets.delete(timer);
      if (!this.closed) void this.recording(event);
    }, SAFETY_NET_MS);
    timer.unref();
    this.safetyNets.add(timer);
    return undefined;
  };

  /** fanOut, its failure logged, tracked until it ends. */
  private recording(event: AnalysisEnded): Promise<void> {
    const work = this.fanOut(event).then(
      () => undefined,
      (error: unknown) => {
        this.logger.error({ err: error, event: event.type, eventId: event.id, trackKey: event.trackKey }, 'webhooks: the deliveries of an event could not be recorded');
      },
    );
    this.fanOuts.add(work);
    void work.finally(() => this.fanOuts.delete(work));
    return work;
  }

  /**
   * One delivery per enabled webhook, of each key interested in the key, that asked for the
   * event's type; then the interests read are consumed. Idempotent: a second hearing of the
   * event finds its deliveries recorded (or the interests gone).
   */
  async fanOut(event: AnalysisEnded): Promise<number> {
    // A request of this process for the key may still be on its way to the store.
    await Promise.all([...this.writes]);
    const { interests, webhooks } = await this.store.interested(event.trackKey);
    let recorded = 0;
    if (interests.length > 0) {
      const at = this.iso();
      const body = JSON.stringify(eventBody(event));
      const rows = webhooks.filter((w) => (JSON.parse(w.events) as string[]).includes(event.type)).map((w) => deliveryRow(w.id, event.id, event.type, body, at));
      recorded = await this.store.insertDeliveries(rows);
      if (recorded > 0) this.logger.debug({ eventId: event.id, trackKey: event.trackKey, deliveries: recorded }, 'webhook deliveries recorded');
    }
    // Another process may have recorded them: this process's dispatcher looks either way, while
    // the interests read are consumed.
    this.deliveriesRecorded();
    await this.store.consumeInterests(event.trackKey, interests);
    return recorded;
  }

  /** Forgets finished deliveries past their retention and interests in analyses that never ended. */
  async prune(): Promise<void> {
    const now = this.now();
    await this.store.prune(new Date(now - DELIVERY_RETENTION_MS).toISOString(), new Date(now - INTEREST_RETENTION_MS).toISOString());
  }

  /** Resolves once the interests and deliveries being recorded now are in the store. */
  async settled(): Promise<void> {
    await Promise.all([...this.writes, ...this.fanOuts]);
  }

  /** Records nothing more (the safety nets pending are dropped) and waits for what is under way. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.safetyNets) clearTimeout(timer);
    this.safetyNets.clear();
    await this.settled();
  }

  private async owned(principal: Principal, id: string): Promise<Webhook> {
    const row = typeof id === 'string' && id.length <= 64 ? await guardConnection(() => this.store.getWebhook(id)) : undefined;
    // Another key's webhook is as absent as one that does not exist.
    if (!row || (row.key_id !== principal.id && !isAdmin(principal))) throw new AppError('NOT_FOUND', `no webhook ${String(id).slice(0, 64)}`);
    return webhookOf(row);
  }

  /** The outbound guard's verdict on a new URL, as the client's error. */
  private async checkReachable(url: URL): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new AppError('SERVICE_UNAVAILABLE', `the host ${url.hostname} could not be resolved in time; try again`, { retryAfterS: 5 })), RESOLVE_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.guard.check(url), timeout]);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof OutboundRefusedError) {
        throw invalidArgument(`url leads to ${error.address}, a ${error.range} address: webhooks reach public addresses only (OUTBOUND_ALLOW_PRIVATE=true lifts this on closed networks)`,
        );
      }
      const code = (error as { code?: unknown } | undefined)?.code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') throw invalidArgument(`the host ${url.hostname} does not resolve`);
      throw new AppError('SERVICE_UNAVAILABLE', `the host ${url.hostname} could not be resolved; try again`, { cause: error, retryAfterS: 5 });
    } finally {
      clearTimeout(timer);
    }
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}

/** The body of an event's message: `{type, timestamp, data}`, as Standard Webhooks payloads are. */
export function eventBody(event: AnalysisEnded): { type: string; timestamp: string; data: Record<string, unknown> } {
  if (event.type === ANALYSIS_COMPLETED) {
    return { type: event.type, timestamp: event.at, data: { trackKey: event.trackKey, analysis: toContractAnalysis(event.analysis) } };
  }
  return { type: event.type, timestamp: event.at, data: { trackKey: event.trackKey, error: event.error } };
}

/** A webhook URL: absolute http(s), no credentials, at most MAX_URL_LENGTH; the fragment is dropped. */
export function checkedUrl(raw: string): URL {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text.length === 0) throw invalidArgument('url is required');
  if (text.length > MAX_URL_LENGTH) throw invalidArgument(`url must be at most ${MAX_URL_LENGTH} characters`);
  const url = URL.parse(text);
  if (!url) throw invalidArgument('url is not an absolute URL');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidArgument(`url must be http or https (got ${url.protocol.replace(/:$/, '').slice(0, 20)})`);
  if (url.username || url.password) throw invalidArgument('url must not carry a user name or password: verify the signature instead');
  url.hash = '';
  return url;
}

/** The events a webhook asks for: a non-empty list of known events, each once; all of them by default. */
export function checkedEvents(events: readonly string[] | null | undefined): WebhookEvent[] {
  if (events === undefined || events === null) return [...WEBHOOK_EVENTS];
  if (events.length === 0) throw invalidArgument(`events must name at least one of ${WEBHOOK_EVENTS.join(', ')}`);
  const chosen = new Set<WebhookEvent>();
  for (const e of events) {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(e)) {
      throw invalidArgument(`unknown event "${String(e).slice(0, 40)}": events are ${WEBHOOK_EVENTS.join(', ')}`);
    }
    chosen.add(e as WebhookEvent);
  }
  return WEBHOOK_EVENTS.filter((e) => chosen.has(e));
}

function eventsOf(row: WebhookRow): string[] {
  return JSON.parse(row.events) as string[];
}

function webhookOf(row: WebhookRow): Webhook {
  return {
    id: row.id,
    keyId: row.key_id,
    url: row.url,
    events: eventsOf(row),
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    consecutiveFailures: row.consecutive_failures,
  };
}

function deliveryRow(webhookId: string, eventId: string, event: string, payload: string, at: string): DeliveryRow {
  return {
    id: `msg_${randomBytes(12).toString('hex')}`,
    webhook_id: webhookId,
    event_id: eventId,
    event,
    payload,
    status: 'pending',
    attempt: 0,
    next_attempt_at: at,
    response_status: null,
    duration_ms: null,
    error: null,
    created_at: at,
    updated_at: at,
  };
}

function deliveryOf(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    attempt: row.attempt,
    status: row.status as DeliveryStatus,
    responseStatus: row.response_status,
    durationMs: row.duration_ms,
    error: row.error,
    createdAt: row.created_at,
    nextAttemptAt: row.status === 'succeeded' || row.status === 'failed' ? null : row.next_attempt_at,
  };
}
