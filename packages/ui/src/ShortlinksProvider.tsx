/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link, ShortlinksClient } from '@shortlinks/client';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { DEFAULT_MESSAGES, type HostMessages } from './host-messages.ts';

/**
 * What the components need from the app that shows them: the API client, and the few things each
 * platform does its own way. The extension copies with a fallback for pages without focus,
 * remembers titles and short domains in its storage, and names its own options and Manage page in
 * error messages; a web page needs none of that.
 */
export interface ShortlinksHost {
  client: ShortlinksClient;
  /** Copies text to the clipboard; resolves true when it did. */
  copyText(text: string): Promise<boolean>;
  /** The link form created a link: a link given a new slug is created anew. */
  onLinkCreated(link: Link): void | Promise<void>;
  /** The person saved a title of their own for a link; `link` holds the title as the server stored it. */
  onTitleChosen(link: Link): void | Promise<void>;
  /** The sentences of errors mended elsewhere (the key, the connection, the plan's limits). */
  messages: HostMessages;
  /**
   * The caller may only look (a viewer of the workspace): no control that writes is shown. The
   * server refuses such writes anyway (docs/accounts.md, "Roles"); this only hides what would fail.
   */
  readOnly: boolean;
}

const HostContext = createContext<ShortlinksHost | undefined>(undefined);

/** The asynchronous Clipboard API, enough for a focused web page. */
async function copyWithClipboardApi(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

const ignore = () => undefined;

/**
 * Gives every component below it the API client and the host's ways of doing things. Only
 * `client` is required; the rest default to what a web page does (the Clipboard API, nothing to
 * remember, error messages that name no place). `messages` may give some sentences only.
 */
export function ShortlinksProvider({
  client,
  copyText = copyWithClipboardApi,
  onLinkCreated = ignore,
  onTitleChosen = ignore,
  messages,
  readOnly = false,
  children,
}: Pick<ShortlinksHost, 'client'> &
  Partial<Omit<ShortlinksHost, 'client' | 'messages'>> & { messages?: Partial<HostMessages> | undefined; children: ReactNode }) {
  const host = useMemo(
    () => ({ client, copyText, onLinkCreated, onTitleChosen, messages: { ...DEFAULT_MESSAGES, ...messages }, readOnly }),
    [client, copyText, onLinkCreated, onTitleChosen, messages, readOnly],
  );
  return <HostContext.Provider value={host}>{children}</HostContext.Provider>;
}

/** The host given by the nearest `ShortlinksProvider`. */
export function useShortlinks(): ShortlinksHost {
  const host = useContext(HostContext);
  if (!host) throw new Error('useShortlinks() needs a <ShortlinksProvider client={…}> above this component.');
  return host;
}
