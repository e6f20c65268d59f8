import type { ShortlinksClient, Tag } from '@shortlinks/client';
import { useEffect, useState } from 'react';
import type { AccountState } from '../account.ts';

/**
 * The account's tags for a link's form: the dashboard's own when the page is given them, or read
 * once when the form opens (a page reached by its address alone may not be).
 */
export function useAccountTags(client: ShortlinksClient, account: AccountState | undefined, wanted: boolean): Tag[] {
  const [read, setRead] = useState<Tag[]>();
  useEffect(() => {
    if (!wanted || account?.tags || read) return;
    let current = true;
    client.tags.list().then(
      (list) => current && setRead(list.tags),
      // Without the list the form still takes tags typed by name.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, account?.tags, wanted, read]);
  return account?.tags ?? read ?? [];
}
