import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Webhook as WebhookView, WebhookDelivery as DeliveryView } from '../../webhooks/webhook.service';

/*
 * Webhooks as the admin API has them (web/src/admin/webhooks.graphql): a key's webhooks, the
 * secret of a new one (once), and each webhook's delivery log. Times are DateTimeISO.
 */

export enum DeliveryStatus {
  PENDING = 'PENDING',
  SUCCEEDED = 'SUCCEEDED',
  FAILED = 'FAILED',
  RETRYING = 'RETRYING',
}

registerEnumType(DeliveryStatus, {
  name: 'DeliveryStatus',
  description: 'Where a delivery stands.',
  valuesConfig: {
    PENDING: { description: 'Not tried yet.' },
    SUCCEEDED: { description: 'The receiver answered 2xx.' },
    FAILED: { description: 'No attempt is left (or the webhook was disabled, or deleted).' },
    RETRYING: { description: 'The last attempt failed; another is due at nextAttemptAt.' },
  },
});

@ObjectType({ description: 'One event to one webhook, and where its delivery stands.' })
export class WebhookDelivery {
  @Field(() => ID, { description: 'The webhook-id header the receiver gets: the same on every attempt.' })
  id!: string;

  @Field(() => String, { description: 'analysis.completed, analysis.failed or webhook.test.' })
  event!: string;

  @Field(() => Int, { description: 'Attempts made so far.' })
  attempt!: number;

  @Field(() => DeliveryStatus, { description: 'Where it stands.' })
  status!: DeliveryStatus;

  @Field(() => Int, { nullable: true, description: 'The receiver\'s HTTP status at the last attempt; null when it did not answer.' })
  responseStatus!: number | null;

  @Field(() => Int, { nullable: true, description: 'How long the last attempt took, ms.' })
  durationMs!: number | null;

  @Field(() => Date, { description: 'When the event was recorded for this webhook.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it is tried next, while PENDING or RETRYING.' })
  nextAttemptAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed (HTTP status, timeout, refused address …).' })
  error!: string | null;
}

@ObjectType({ description: 'A webhook of an API key: where the analyses that key asked for are announced. Its secret is shown once, by createWebhook.' })
export class Webhook {
  @Field(() => ID, { description: 'The webhook\'s id.' })
  id!: string;

  @Field(() => String, { description: 'Where its events are POSTed.' })
  url!: string;

  @Field(() => [String], { description: 'The events it receives: analysis.completed, analysis.failed (webhook.test is sent on request).' })
  events!: string[];

  @Field(() => Date, { description: 'When it was made.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it was disabled after failing repeatedly; null while enabled.' })
  disabledAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it was disabled; null while enabled. A successful test event enables it again.' })
  disabledReason!: string | null;

  @Field(() => Int, { description: 'Failed attempts since its last success.' })
  consecutiveFailures!: number;

  /** The service's view, for the deliveries field. */
  view!: WebhookView;
}

@ObjectType({ description: 'A new webhook and its signing secret, which no later answer shows.' })
export class CreatedWebhook {
  @Field(() => Webhook, { description: 'The webhook.' })
  webhook!: Webhook;

  @Field(() => String, { description: 'The signing secret (whsec_ and base64): verify every message with it (docs/API.md, "Webhooks").' })
  secret!: string;
}

const STATUS: Record<DeliveryView['status'], DeliveryStatus> = {
  pending: DeliveryStatus.PENDING,
  retrying: DeliveryStatus.RETRYING,
  succeeded: DeliveryStatus.SUCCEEDED,
  failed: DeliveryStatus.FAILED,
};

const date = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));

export function webhookOf(view: WebhookView): Webhook {
  return {
    id: view.id,
    url: view.url,
    events: view.events,
    createdAt: new Date(view.createdAt),
    disabledAt: date(view.disabledAt),
    disabledReason: view.disabledReason,
    consecutiveFailures: view.consecutiveFailures,
    view,
  };
}

export function deliveryOf(view: DeliveryView): WebhookDelivery {
  return {
    id: view.id,
    event: view.event,
    attempt: view.attempt,
    status: STATUS[view.status],
    responseStatus: view.responseStatus,
    durationMs: view.durationMs,
    createdAt: new Date(view.createdAt),
    nextAttemptAt: date(view.nextAttemptAt),
    error: view.error,
  };
}
