import type { ReactNode } from 'react';
import { useSession } from '../session/session.context';

/**
 * The key pages need an admin key: a read key gets a sentence saying so instead of a page of
 * errors.
 */
export function AdminGuard({ adminOnly, children }: { adminOnly: boolean; children: ReactNode }) {
  const session = useSession();
  if (session.scope === null) return <p role="status">Loading…</p>;
  if (adminOnly && session.scope !== 'ADMIN') return <p className="notice">This page needs an admin key; the key you signed in with is a read key.</p>;
  return <>{children}</>;
}
