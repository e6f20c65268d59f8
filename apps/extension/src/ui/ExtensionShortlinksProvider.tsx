/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link, ShortlinksClient } from '@shortlinks/client';
import { type HostMessages, ShortlinksProvider } from '@shortlinks/ui';
import type { ReactNode } from 'react';
import { copyText } from '../lib/clipboard.ts';
import { rememberShortUrl, rememberTitle } from '../lib/settings.ts';

// Module-level, so the provider's value keeps its identity across renders.
const rememberShortDomain = (link: Link) => rememberShortUrl(link.short_url);
const rememberChosenTitle = (link: Link) => rememberTitle(link.id, link.title);

/** Where the extension's people mend what these errors are about: its options and its Manage page. */
const EXTENSION_MESSAGES: HostMessages = {
  keyRefused: 'The server refused the API key. Check it in the extension’s options.',
  unreachable: 'The server could not be reached. Check your connection, and the server address in the extension’s options.',
  tagLimitReached: 'Your plan allows no more tags. Pick existing tags, or delete unused ones in Manage → Tags.',
  linkLimitReached: 'Your plan’s link limit is reached. Delete links you no longer need in Manage.',
};

/**
 * The shared components as the extension runs them: its clipboard copy (with the fallback for a
 * page without focus), titles and short domains remembered in `chrome.storage.local` for the
 * popup (lib/shorten.ts, lib/shortenable.ts), and error messages that point to its options and Manage.
 */
export function ExtensionShortlinksProvider({ client, children }: { client: ShortlinksClient; children: ReactNode }) {
  return (
    <ShortlinksProvider
      client={client}
      copyText={copyText}
      onLinkCreated={rememberShortDomain}
      onTitleChosen={rememberChosenTitle}
      messages={EXTENSION_MESSAGES}
    >
      {children}
    </ShortlinksProvider>
  );
}
