/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import '@shortlinks/ui/theme.css';
import type { Link } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { ErrorBanner, useShortlinks } from '@shortlinks/ui';
import { formErrorOf } from '@shortlinks/ui/errors';
import { useCallback, useEffect, useState } from 'react';
import { findCurrentTab } from './lib/current-tab.ts';
import { browserPageLinks } from './lib/page-links.ts';
import { loadShortOrigins, rememberShortUrl } from './lib/settings.ts';
import { createPageLink, findPageLink, undoPageLink } from './lib/shorten.ts';
import { whyNotShortenable } from './lib/shortenable.ts';
import { ConnectFirst } from './ui/ConnectFirst.tsx';
import { ExtensionShortlinksProvider } from './ui/ExtensionShortlinksProvider.tsx';
import { type Page, PageHome } from './ui/PageHome.tsx';
import { PageLinkView } from './ui/PageLinkView.tsx';
import { useClient } from './ui/useSettings.ts';

type PopupView =
  | { kind: 'looking' }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string }
  /** The page has no link yet: Shorten makes one. `notice` says what just happened (an Undo). */
  | { kind: 'home'; page: Page; notice?: string }
  /** The page's link: made just now in this popup (`createdHere`: Undo), or found. */
  | { kind: 'link'; page: Page; link: Link; createdHere: boolean; copied: boolean };

/**
 * The toolbar popup. It opens on the current page without creating anything: the page's link when
 * it has one (found, copied, editable), otherwise the page with a **Shorten** button; Manage and
 * Options are always one click away (docs/extension.md, *The popup*).
 */
export default function Popup() {
  const connection = useClient();
  return (
    <main className="popup">
      <header className="popup-header">
        <h1>Shortlinks</h1>
        <nav className="row" style={{ gap: 4 }} aria-label="Extension">
          <a className="button small" href={chrome.runtime.getURL('tabs/manage.html')} target="_blank" rel="noreferrer">
            Manage
          </a>
          <button type="button" className="button small" onClick={() => chrome.runtime.openOptionsPage()}>
            Options
          </button>
        </nav>
      </header>
      {connection === undefined ? <div className="spinner" role="status" aria-label="Loading" /> : null}
      {connection === null ? <ConnectFirst /> : null}
      {connection ? (
        <ExtensionShortlinksProvider client={connection.client}>
          <CurrentPage serverUrl={connection.settings.serverUrl} />
        </ExtensionShortlinksProvider>
      ) : null}
    </main>
  );
}

function CurrentPage({ serverUrl }: { serverUrl: string }) {
  const { client, copyText, messages } = useShortlinks();
  const [view, setView] = useState<PopupView>({ kind: 'looking' });
  const [tags, setTags] = useState<TagSummary[]>([]);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // `attempt` is read so that Try again looks anew.
    void attempt;
    setView({ kind: 'looking' });
    (async () => {
      const tab = await findCurrentTab();
      const refusal = whyNotShortenable(tab?.url, [serverUrl, ...(await loadShortOrigins())]);
      if (refusal || !tab?.url) {
        setView({ kind: 'refused', message: refusal ?? 'This tab has no address to shorten.' });
        return;
      }
      const page: Page = { url: tab.url, title: tab.title };
      try {
        const [link, tagList] = await Promise.all([findPageLink(client, page.url), client.tags.list()]);
        setTags(tagList.tags);
        if (!link) {
          setView({ kind: 'home', page });
          return;
        }
        await rememberShortUrl(link.short_url);
        setView({ kind: 'link', page, link, createdHere: false, copied: await copyText(link.short_url) });
      } catch (error) {
        setView({ kind: 'failed', message: formErrorOf(error, messages).message });
      }
    })();
  }, [client, copyText, messages, serverUrl, attempt]);

  const refreshTags = useCallback(async () => {
    const list = await client.tags.list().catch(() => undefined);
    if (list) setTags(list.tags);
  }, [client]);

  if (view.kind === 'looking') {
    return (
      <div className="row muted" role="status">
        <div className="spinner" /> Looking for this page’s link…
      </div>
    );
  }
  if (view.kind === 'refused') return <div className="banner info">{view.message}</div>;
  if (view.kind === 'failed') return <ErrorBanner message={view.message} onRetry={() => setAttempt((n) => n + 1)} />;
  if (view.kind === 'home') {
    const { page } = view;
    return (
      <PageHome
        page={page}
        notice={view.notice}
        onShorten={async (destination, domain) => {
          const link = await createPageLink(client, page.url, destination, page.title, undefined, domain);
          setView({ kind: 'link', page, link, createdHere: link.created, copied: await copyText(link.short_url) });
        }}
      />
    );
  }
  const { page, link } = view;
  return (
    <PageLinkView
      link={link}
      createdHere={view.createdHere}
      copied={view.copied}
      tags={tags}
      onCopy={async () => setView({ ...view, copied: await copyText(link.short_url) })}
      onUndo={async () => {
        await undoPageLink(client, page.url, link);
        setView({ kind: 'home', page, notice: `Undone: ${link.short_url} was deleted.` });
      }}
      onSaved={async (saved) => {
        void refreshTags();
        if (saved.short_url === link.short_url) {
          setView({ ...view, link: saved });
          return;
        }
        // Moved to a new slug: the page's link is the new one, and its short URL is what gets pasted now.
        await browserPageLinks.remember(page.url, saved.id);
        setView({ ...view, link: saved, copied: await copyText(saved.short_url) });
        window.scrollTo({ top: 0, behavior: 'smooth' });
      }}
    />
  );
}
