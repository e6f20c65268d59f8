/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import '@shortlinks/ui/theme.css';
import type { TagList } from '@shortlinks/client';
import { LinksView, PlanUsage, TagManager, useShortlinks } from '@shortlinks/ui';
import { formErrorOf } from '@shortlinks/ui/errors';
import { useCallback, useEffect, useState } from 'react';
import { ConnectFirst } from '../ui/ConnectFirst.tsx';
import { ExtensionShortlinksProvider } from '../ui/ExtensionShortlinksProvider.tsx';
import { useClient } from '../ui/useSettings.ts';

/** The manage page (an extension tab): links and tags of the account, and the plan's usage. */
export default function Manage() {
  const connection = useClient();
  return (
    <>
      <header className="manage-header">
        <h1>Shortlinks</h1>
        <span className="muted">{connection ? new URL(connection.settings.serverUrl).host : ''}</span>
        <button type="button" className="button small" style={{ marginLeft: 'auto' }} onClick={() => chrome.runtime.openOptionsPage()}>
          Options
        </button>
      </header>
      <main className="manage-main">
        {connection === undefined ? <div className="spinner" role="status" aria-label="Loading" /> : null}
        {connection === null ? <ConnectFirst /> : null}
        {connection ? (
          <ExtensionShortlinksProvider client={connection.client}>
            <Account />
          </ExtensionShortlinksProvider>
        ) : null}
      </main>
    </>
  );
}

function Account() {
  const { client } = useShortlinks();
  const [view, setView] = useState<'links' | 'tags'>('links');
  const [version, setVersion] = useState(0);
  const [tags, setTags] = useState<TagList>();
  const [usage, setUsage] = useState<{ links: number; linkLimit: number | null }>();
  const [error, setError] = useState<string>();
  const changed = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    Promise.all([client.tags.list(), client.links.list({ per_page: 1 })]).then(
      ([tagList, links]) => {
        setTags(tagList);
        setUsage({ links: links.total, linkLimit: links.link_limit });
      },
      (caught) => setError(formErrorOf(caught).message),
    );
  }, [client, version]);

  if (error) {
    return (
      <div className="banner error" role="alert">
        {error}
      </div>
    );
  }
  return (
    <>
      <div className="row" style={{ gap: 32, marginBottom: 18 }}>
        {usage ? <PlanUsage label="links" used={usage.links} limit={usage.linkLimit} /> : null}
        {tags ? <PlanUsage label="tags" used={tags.tags.length} limit={tags.tag_limit} /> : null}
      </div>
      <div
        className="tabs"
        role="tablist"
        aria-label="Links or tags"
        onKeyDown={(event) => {
          // Arrow keys move between the two tabs (WAI-ARIA tabs pattern).
          if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
          const next = view === 'links' ? 'tags' : 'links';
          setView(next);
          document.getElementById(`tab-${next}`)?.focus();
        }}
      >
        {(['links', 'tags'] as const).map((name) => (
          <button
            key={name}
            id={`tab-${name}`}
            type="button"
            role="tab"
            aria-selected={view === name}
            aria-controls={`panel-${name}`}
            tabIndex={view === name ? 0 : -1}
            onClick={() => setView(name)}
          >
            {name === 'links' ? 'Links' : 'Tags'}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${view}`} aria-labelledby={`tab-${view}`}>
        {view === 'links' ? (
          <LinksView
            tags={tags?.tags ?? []}
            version={version}
            onChanged={changed}
            emptyHint="No links yet. Open a page and click the Shortlinks button to shorten it."
          />
        ) : null}
        {view === 'tags' && tags ? <TagManager tags={tags.tags} onChanged={changed} /> : null}
      </div>
    </>
  );
}
