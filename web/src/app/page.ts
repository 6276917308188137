import { useEffect } from 'react';

/** The document title of a page: what a tab, a history entry and a screen reader name it. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · trackgraph`;
  }, [title]);
}
