import type { Link } from '@shortlinks/client';
import { useCallback, useState } from 'react';

/**
 * The links chosen for a bulk action: rows ticked one by one (kept across pages, with the link as
 * listed, whose tags the tag actions start from), or every link the filter matches.
 */
export interface LinkSelection {
  picked: ReadonlyMap<string, Link>;
  allMatching: boolean;
}

const NONE: LinkSelection = { picked: new Map(), allMatching: false };

export function useLinkSelection() {
  const [selection, setSelection] = useState<LinkSelection>(NONE);
  const clear = useCallback(() => setSelection(NONE), []);
  /** Ticks or unticks rows. Unticking one while "all matching" is chosen keeps the other rows of the page. */
  const pick = useCallback((links: readonly Link[], picked: boolean, page: readonly Link[]) => {
    setSelection((current) => {
      const next = new Map(current.allMatching ? page.map((link) => [link.id, link]) : current.picked);
      for (const link of links) {
        if (picked) next.set(link.id, link);
        else next.delete(link.id);
      }
      return { picked: next, allMatching: false };
    });
  }, []);
  const pickAllMatching = useCallback(() => setSelection({ picked: new Map(), allMatching: true }), []);
  const isPicked = (link: Link) => selection.allMatching || selection.picked.has(link.id);
  return { selection, clear, pick, pickAllMatching, isPicked };
}
