import { type Link, type ShortlinksClient, ShortlinksError } from '@shortlinks/client';
import { formErrorOf } from '@shortlinks/ui/errors';
import { useCallback, useEffect, useState } from 'react';

/** A link of the account as a page shows it: loading, found, gone (404) or failed with a reason. */
export type LinkState =
  | { state: 'loading' }
  | { state: 'found'; link: Link }
  | { state: 'not-found' }
  | { state: 'failed'; message: string };

/** Reads one link (`links.get`), again when the id changes or on `retry`; `replace` shows a link just saved. */
export function useLink(client: ShortlinksClient, id: string) {
  const [found, setFound] = useState<LinkState>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // `attempt` is read so that Try again reads anew.
    void attempt;
    let current = true;
    setFound({ state: 'loading' });
    client.links.get(id).then(
      (link) => current && setFound({ state: 'found', link }),
      (caught) => {
        if (!current) return;
        const gone = caught instanceof ShortlinksError && caught.status === 404;
        setFound(gone ? { state: 'not-found' } : { state: 'failed', message: formErrorOf(caught).message });
      },
    );
    return () => {
      current = false;
    };
  }, [client, id, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const replace = useCallback((link: Link) => setFound({ state: 'found', link }), []);
  return { found, retry, replace };
}
