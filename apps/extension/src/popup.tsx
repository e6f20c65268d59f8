/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import '@shortlinks/ui/theme.css';
import type { Link } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { LinkForm, useShortlinks } from '@shortlinks/ui';
import { formErrorOf } from '@shortlinks/ui/errors';
import { QrCode } from '@shortlinks/ui/qr-code';
import { useEffect, useState } from 'react';
import { copyText } from './lib/clipboard.ts';
import { findCurrentTab } from './lib/current-tab.ts';
import { manageRouteHash } from './lib/manage-route.ts';
import { loadShortOrigins } from './lib/settings.ts';
import { shortenPage } from './lib/shorten.ts';
import { whyNotShortenable } from './lib/shortenable.ts';
import { ConnectFirst } from './ui/ConnectFirst.tsx';
import { ExtensionShortlinksProvider } from './ui/ExtensionShortlinksProvider.tsx';
import { useClient } from './ui/useSettings.ts';

type PopupState =
  | { kind: 'working' }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; link: Link; fresh: boolean; copied: boolean; tags: TagSummary[] };

/** The toolbar popup: shortens the current tab as soon as it opens, then offers the link's editor. */
export default function Popup() {
  const connection = useClient();
  return (
    <main style={{ width: 380, padding: 14 }}>
      <header className="row" style={{ justifyContent: 'space-between', marginBottom: 12 }}>
        <h1>Shortlinks</h1>
        <nav className="row" style={{ gap: 4 }}>
          <a className="button small" href={chrome.runtime.getURL('tabs/manage.html')} target="_blank" rel="noreferrer">
            Manage
          </a>
          <button type="button" className="button small" onClick={() => chrome.runtime.openOptionsPage()}>
            Options
          </button>
        </nav>
      </header>
      {connection === undefined ? <div className="spinner" /> : null}
      {connection === null ? <ConnectFirst /> : null}
      {connection ? (
        <ExtensionShortlinksProvider client={connection.client}>
          <ShortenCurrentTab serverUrl={connection.settings.serverUrl} />
        </ExtensionShortlinksProvider>
      ) : null}
    </main>
  );
}

function ShortenCurrentTab({ serverUrl }: { serverUrl: string }) {
  const { client } = useShortlinks();
  const [state, setState] = useState<PopupState>({ kind: 'working' });

  useEffect(() => {
    (async () => {
      const tab = await findCurrentTab();
      const refusal = whyNotShortenable(tab?.url, [serverUrl, ...(await loadShortOrigins())]);
      if (refusal || !tab?.url) {
        setState({ kind: 'refused', message: refusal ?? 'This tab has no address to shorten.' });
        return;
      }
      try {
        const [link, tags] = await Promise.all([shortenPage(client, tab.url, tab.title), client.tags.list()]);
        const copied = await copyText(link.short_url);
        setState({ kind: 'ready', link, fresh: link.created, copied, tags: tags.tags });
      } catch (error) {
        setState({ kind: 'failed', message: formErrorOf(error).message });
      }
    })();
  }, [client, serverUrl]);

  if (state.kind === 'working') {
    return (
      <div className="row muted" role="status">
        <div className="spinner" /> Shortening this page…
      </div>
    );
  }
  if (state.kind === 'refused') return <div className="banner info">{state.message}</div>;
  if (state.kind === 'failed') {
    return (
      <div className="banner error" role="alert">
        {state.message}
      </div>
    );
  }
  const { link } = state;
  const copy = async () => setState({ ...state, copied: await copyText(link.short_url) });
  return (
    <>
      <section className="row" style={{ alignItems: 'flex-start', gap: 12, marginBottom: 12 }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <div className="muted" style={{ fontSize: 12 }}>
            {state.fresh ? 'New short link' : 'Already shortened'}
            {state.fresh ? null : ` · ${link.click_count} ${link.click_count === 1 ? 'click' : 'clicks'}`}
          </div>
          <output
            data-testid="short-url"
            style={{ display: 'block', fontSize: 17, fontWeight: 600, wordBreak: 'break-all', margin: '4px 0 8px' }}
          >
            {link.short_url}
          </output>
          <div className="row" style={{ flexWrap: 'wrap', rowGap: 4 }}>
            <button type="button" className="button primary small" onClick={copy}>
              Copy
            </button>
            <a
              className="button small"
              href={chrome.runtime.getURL(`tabs/manage.html${manageRouteHash({ view: 'link', linkId: link.id })}`)}
              target="_blank"
              rel="noreferrer"
            >
              Statistics
            </a>
            <span className="muted" role="status" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {state.copied ? 'Copied to the clipboard' : ''}
            </span>
          </div>
          <div className="muted" style={{ fontSize: 12, marginTop: 8, wordBreak: 'break-all' }} title={link.destination_url}>
            → {link.destination_url.length > 90 ? `${link.destination_url.slice(0, 90)}…` : link.destination_url}
          </div>
        </div>
        <QrCode url={link.short_url} />
      </section>
      <LinkForm
        key={link.id}
        link={link}
        fresh={state.fresh}
        tags={state.tags}
        onSaved={async (saved) => {
          const tags = await client.tags.list().catch(() => ({ tags: state.tags }));
          const copied = saved.short_url !== link.short_url ? await copyText(saved.short_url) : state.copied;
          setState({
            kind: 'ready',
            link: saved,
            fresh: state.fresh && saved.id !== link.id ? false : state.fresh,
            copied,
            tags: tags.tags,
          });
        }}
      />
    </>
  );
}
