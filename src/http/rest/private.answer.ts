import type { Response } from 'express';

/**
 * An answer about credentials (keys, webhooks, usage per key): `{success, data}` marked
 * `Cache-Control: no-store`, since some of them hold a key or a signing secret and none of them
 * is for a shared cache to keep.
 */
export function sendPrivate(res: Response, status: number, data: unknown): void {
  res.status(status).set('Cache-Control', 'no-store').json({ success: true, data });
}
