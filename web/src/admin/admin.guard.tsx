import type { ReactNode } from 'react';
import { useSession } from '../session/session.context';

/**
 * The admin pages need the server's admin API, and some need an admin key: anything else gets a
 * sentence saying which is missing instead of a page of errors.
 */
export function AdminGuard({ adminOnly, children }: { adminOnly: boolean; children: ReactNode }) {
  const session = useSession();
  if (!session.adminApi) return <p className="notice">This server does not offer keys, webhooks and usage through its API.</p>;
  if (session.scope === null) return <p role="status">Loading…</p>;
  if (adminOnly && session.scope !== 'ADMIN') return <p className="notice">This page needs an admin key; the key you signed in with is a read key.</p>;
  return <>{children}</>;
}
