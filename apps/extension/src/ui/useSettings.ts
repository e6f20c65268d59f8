import type { ShortlinksClient } from '@shortlinks/client';
import { useEffect, useState } from 'react';
import { clientFor } from '../lib/connection.ts';
import { loadSettings, type Settings } from '../lib/settings.ts';

/** The saved settings and a client for them; `undefined` while loading, `null` when not configured. */
export function useClient(): { settings: Settings; client: ShortlinksClient } | null | undefined {
  const [state, setState] = useState<{ settings: Settings; client: ShortlinksClient } | null>();
  useEffect(() => {
    loadSettings().then((settings) => setState(settings ? { settings, client: clientFor(settings) } : null));
  }, []);
  return state;
}
