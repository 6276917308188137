/**
 * The API key the dashboard and GraphiQL share, in session storage, not local storage: it lives as
 * long as the tab, is not shared with other tabs, and is gone when the browser closes.
 */
const STORAGE_KEY = 'trackgraph.apiKey';

/** The stored key, or null (none, or storage disabled by the browser). */
export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage disabled by the browser: the key lasts as long as the page.
    return null;
  }
}

/** Keeps the key for this tab; null or an empty key forgets it. */
export function storeKey(key: string | null): void {
  try {
    if (key) sessionStorage.setItem(STORAGE_KEY, key);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Kept in memory only (see storedKey).
  }
}
