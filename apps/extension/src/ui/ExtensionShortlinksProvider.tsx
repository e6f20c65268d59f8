/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link, ShortlinksClient } from '@shortlinks/client';
import { ShortlinksProvider } from '@shortlinks/ui';
import type { ReactNode } from 'react';
import { copyText } from '../lib/clipboard.ts';
import { rememberShortUrl, rememberTitle } from '../lib/settings.ts';

// Module-level, so the provider's value keeps its identity across renders.
const rememberShortDomain = (link: Link) => rememberShortUrl(link.short_url);
const rememberChosenTitle = (link: Link) => rememberTitle(link.id, link.title);

/**
 * The shared components as the extension runs them: its clipboard copy (with the fallback for a
 * page without focus), and titles and short domains remembered in `chrome.storage.local` for the
 * popup (lib/shorten.ts, lib/shortenable.ts).
 */
export function ExtensionShortlinksProvider({ client, children }: { client: ShortlinksClient; children: ReactNode }) {
  return (
    <ShortlinksProvider client={client} copyText={copyText} onLinkCreated={rememberShortDomain} onTitleChosen={rememberChosenTitle}>
      {children}
    </ShortlinksProvider>
  );
}
