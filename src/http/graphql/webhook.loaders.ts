import DataLoader from 'dataloader';
import { MAX_DELIVERY_BATCH, type WebhookDelivery, type WebhookService } from '../../webhooks/webhook.service';

/**
 * Webhook lookups of one GraphQL request: the delivery logs of every webhook a document lists
 * are read in one batch per page size (WebhookService.recentDeliveriesOf: one statement per
 * MAX_DELIVERY_BATCH webhooks). The service checks the page size, so a bad one fails only the
 * fields that asked for it. Created per request and never shared.
 */
export class WebhookLoaders {
  private readonly byPageSize = new Map<number, DataLoader<string, WebhookDelivery[]>>();

  constructor(private readonly service: WebhookService) {}

  /** The newest `first` deliveries of a webhook the service listed to this request's key. */
  deliveries(webhookId: string, first: number): Promise<WebhookDelivery[]> {
    let loader = this.byPageSize.get(first);
    if (!loader) {
      loader = new DataLoader((ids) => this.service.recentDeliveriesOf(ids, first), { maxBatchSize: MAX_DELIVERY_BATCH });
      this.byPageSize.set(first, loader);
    }
    return loader.load(webhookId);
  }
}
