import type { ShortlinksClient, Tag } from '@shortlinks/client';
import { formErrorOf } from '@shortlinks/ui/errors';
import { useCallback, useEffect, useState } from 'react';

/** What every view of the dashboard shares: the account's tags and how much of its plan is used. */
export interface AccountState {
  tags: Tag[] | undefined;
  usage: { links: number; linkLimit: number | null; tags: number; tagLimit: number | null } | undefined;
  error: string | undefined;
  /** Bumped after every change, so views fetch again. */
  version: number;
  changed: () => void;
}

/** Loads the account's tags and plan usage, again after each change (as the extension's manage page does). */
export function useAccount(client: ShortlinksClient): AccountState {
  const [version, setVersion] = useState(0);
  const [tags, setTags] = useState<Tag[]>();
  const [usage, setUsage] = useState<AccountState['usage']>();
  const [error, setError] = useState<string>();
  const changed = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let current = true;
    Promise.all([client.tags.list(), client.links.list({ per_page: 1 })]).then(
      ([tagList, links]) => {
        if (!current) return;
        setTags(tagList.tags);
        setUsage({ links: links.total, linkLimit: links.link_limit, tags: tagList.tags.length, tagLimit: tagList.tag_limit });
        setError(undefined);
      },
      (caught) => current && setError(formErrorOf(caught).message),
    );
    return () => {
      current = false;
    };
  }, [client, version]);

  return { tags, usage, error, version, changed };
}
