import express, { Router, type Request, type RequestHandler } from 'express';
import type { ApiKeyInfo, ApiKeyService, Principal } from '../../auth/api-keys';
import type { UsageService } from '../../usage/usage.service';
import { adminOnly } from '../auth';
import { createKeyBody, keyIdPath, parse, parseBody, usageParams } from './rest.params';
import { sendPrivate } from './private.answer';

export interface KeyRouteServices {
  apiKeys: ApiKeyService;
  usage: UsageService;
}

/** A key's body is a few hundred bytes at most. */
const MAX_BODY = '16kb';

const listed = (k: ApiKeyInfo) => ({
  id: k.id,
  name: k.name,
  scope: k.scope,
  source: k.source,
  createdAt: k.createdAt,
  expiresAt: k.expiresAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});

/**
 * Keys and usage over REST. `gate` (the key check and the rate limit) runs first on each; keys
 * need an admin key (FORBIDDEN otherwise); usage answers an admin every key's rows and any
 * other key its own.
 */
export function keyRoutes(services: KeyRouteServices, gate: RequestHandler): Router {
  const router = Router();
  const json = express.json({ limit: MAX_BODY });

  router.post('/api/keys', gate, adminOnly('creating keys'), json, async (req: Request, res) => {
    const body = parseBody(createKeyBody, req.body, '{name, scope?, expiresAt?}');
    const { key, info } = await services.apiKeys.create({ name: body.name, scope: body.scope, expiresAt: body.expiresAt ?? null, source: 'api' });
    res.location(`/api/keys/${info.id}`);
    sendPrivate(res, 201, { id: info.id, name: info.name, scope: info.scope, key, createdAt: info.createdAt, expiresAt: info.expiresAt });
  });

  router.get('/api/keys', gate, adminOnly('listing keys'), async (_req, res) => {
    sendPrivate(res, 200, (await services.apiKeys.list()).map(listed));
  });

  router.delete('/api/keys/:id', gate, adminOnly('revoking keys'), async (req: Request<{ id: string }>, res) => {
    const { id } = parse(keyIdPath, req.params);
    sendPrivate(res, 200, listed(await services.apiKeys.revoke(id)));
  });

  router.get('/api/usage', gate, async (req, res) => {
    const { days } = parse(usageParams, req.query);
    sendPrivate(res, 200, await services.usage.report(res.locals.principal as Principal, days));
  });

  return router;
}
