import { useEffect } from 'react';
import { documentTitle } from './routes.ts';

/** Sets the tab's title for the view shown (screen readers announce it, history lists it). */
export function useDocumentTitle(...parts: string[]): void {
  const title = documentTitle(...parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
