import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Principal } from '../../auth/api-keys';
import type { Webhook, WebhookDelivery, WebhookService } from '../../webhooks/webhook.service';
import { createWebhookBody, deliveriesQuery, parse, parseBody } from './rest.params';
import { sendPrivate } from './private.answer';

/** A webhook's body is a URL and a few event names. */
const MAX_BODY = '16kb';

const principalOf = (res: Response): Principal => res.locals.principal as Principal;

/** What REST shows of a webhook (never its secret). */
function restWebhook(w: Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    createdAt: w.createdAt,
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    consecutiveFailures: w.consecutiveFailures,
  };
}

function restDelivery(d: WebhookDelivery) {
  return {
    id: d.id,
    event: d.event,
    attempt: d.attempt,
    status: d.status,
    responseStatus: d.responseStatus,
    durationMs: d.durationMs,
    error: d.error,
    createdAt: d.createdAt,
    nextAttemptAt: d.nextAttemptAt,
  };
}

/**
 * The webhooks of the calling API key: POST /api/webhooks (the secret is in that answer only),
 * GET /api/webhooks, DELETE /api/webhooks/{id}, POST /api/webhooks/{id}/test,
 * GET /api/webhooks/{id}/deliveries. Thin: parse, call the service, shape. `gate` (key check and
 * rate limit) runs first on each; another key's webhook is answered 404 like a missing one.
 */
export function webhookRoutes(webhooks: WebhookService, gate: RequestHandler): Router {
  const router = Router();
  const json = express.json({ limit: MAX_BODY });

  router.post('/api/webhooks', gate, json, async (req, res) => {
    const input = parseBody(createWebhookBody, req.body, '{url, events?}');
    const { webhook, secret } = await webhooks.create(principalOf(res), input);
    sendPrivate(res, 201, { id: webhook.id, url: webhook.url, events: webhook.events, secret, createdAt: webhook.createdAt });
  });

  router.get('/api/webhooks', gate, async (_req, res) => {
    const list = await webhooks.list(principalOf(res));
    sendPrivate(res, 200, list.map(restWebhook));
  });

  router.delete('/api/webhooks/:id', gate, async (req: Request<{ id: string }>, res) => {
    await webhooks.delete(principalOf(res), req.params.id);
    sendPrivate(res, 200, { id: req.params.id });
  });

  // Accepted: the test event is sent in the background; its delivery is in the log.
  router.post('/api/webhooks/:id/test', gate, async (req: Request<{ id: string }>, res) => {
    const delivery = await webhooks.test(principalOf(res), req.params.id);
    sendPrivate(res, 202, restDelivery(delivery));
  });

  router.get('/api/webhooks/:id/deliveries', gate, async (req: Request<{ id: string }>, res) => {
    const q = parse(deliveriesQuery, req.query);
    const deliveries = await webhooks.deliveries(principalOf(res), req.params.id, q.limit);
    sendPrivate(res, 200, deliveries.map(restDelivery));
  });

  return router;
}
