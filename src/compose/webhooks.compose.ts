import path from 'node:path';
import type { AnalysisEvents } from '../analysis/events/analysis-events.channel';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { Database } from '../db/database';
import { OutboundGuard } from '../net/outbound.guard';
import { WebhookDispatcher } from '../webhooks/webhook.dispatcher';
import { SecretBox } from '../webhooks/webhook.secrets';
import { WebhookSender } from '../webhooks/webhook.sender';
import { WebhookService } from '../webhooks/webhook.service';
import { SqlWebhookStore } from '../webhooks/webhook.store';
import { secretFile } from './catalogue.compose';
import type { Deployment } from './deployment';

export interface Webhooks {
  webhooks: WebhookService;
  /** Sends the due deliveries, in the api role only. */
  dispatcher?: WebhookDispatcher;
  /** Stops hearing analysis events, then everything webhooks opened. */
  close(): Promise<void>;
}

/**
 * Webhooks of API keys: every process records the deliveries of the analysis events it hears
 * (once per webhook, whoever hears them); API nodes send them.
 */
export function composeWebhooks(config: Config, deployment: Deployment, deps: { database: Database; events: AnalysisEvents; logger: Logger; now?: () => number }): Webhooks {
  const { logger } = deps;
  if (deployment.serves && deployment.shared && !config.WEBHOOK_SECRET_KEY) {
    logger.warn({}, 'WEBHOOK_SECRET_KEY is unset in a shared deployment: webhooks made on this node cannot be signed by the others');
  }
  const store = new SqlWebhookStore(deps.database);
  const secrets = new SecretBox(config.WEBHOOK_SECRET_KEY ? Buffer.from(config.WEBHOOK_SECRET_KEY, 'utf8') : secretFile(path.join(config.dataDir, 'webhook.key')));
  const outbound = new OutboundGuard({ allowPrivate: config.OUTBOUND_ALLOW_PRIVATE });
  const clock = deps.now ? { now: deps.now } : {};
  const webhooks = new WebhookService(store, secrets, outbound, logger, clock);
  const dispatcher = deployment.serves
    ? new WebhookDispatcher(
        store,
        webhooks,
        new WebhookSender(outbound, { timeoutMs: config.WEBHOOK_TIMEOUT_MS }),
        secrets,
        { maxFailures: config.WEBHOOK_MAX_FAILURES, timeoutMs: config.WEBHOOK_TIMEOUT_MS, ...clock },
        logger,
      )
    : undefined;
  if (dispatcher) webhooks.onDeliveries(() => dispatcher.kick());
  const stopHearing = deps.events.subscribe(webhooks.analysisEnded);
  return {
    webhooks,
    ...(dispatcher ? { dispatcher } : {}),
    async close() {
      // The jobs have announced how they ended; their deliveries are recorded before the store closes.
      stopHearing();
      await webhooks.close();
      await dispatcher?.close();
      await outbound.close();
    },
  };
}
