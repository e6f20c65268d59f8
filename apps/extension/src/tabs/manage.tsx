/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import '@shortlinks/ui/theme.css';
import type { TagList } from '@shortlinks/client';
import { ErrorBanner, LinksView, PlanUsage, TagManager, useShortlinks } from '@shortlinks/ui';
import { AccountAnalytics, LinkAnalytics, TagAnalytics } from '@shortlinks/ui/analytics';
import { formErrorOf } from '@shortlinks/ui/errors';
import { useCallback, useEffect, useRef, useState } from 'react';
import { manageRouteHash } from '../lib/manage-route.ts';
import { ConnectFirst } from '../ui/ConnectFirst.tsx';
import { ExtensionShortlinksProvider } from '../ui/ExtensionShortlinksProvider.tsx';
import { navigate, useManageRoute } from '../ui/useManageRoute.ts';
import { useClient } from '../ui/useSettings.ts';

/**
 * The manage page (an extension tab): links and tags of the account, their statistics and the
 * account's overview, and the plan's usage. Each view has its own address (lib/manage-route.ts).
 */
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

const TABS = [
  { view: 'links', label: 'Links' },
  { view: 'tags', label: 'Tags' },
  { view: 'overview', label: 'Overview' },
] as const;

type Tab = (typeof TABS)[number]['view'];

const linkStatistics = (link: { id: string }) => manageRouteHash({ view: 'link', linkId: link.id });
const tagStatistics = (tag: { id: string }) => manageRouteHash({ view: 'tag', tagId: tag.id });
const openLinkStatistics = (linkId: string) => navigate({ view: 'link', linkId });

function Account() {
  const { client, messages } = useShortlinks();
  const route = useManageRoute();
  const [version, setVersion] = useState(0);
  const [tags, setTags] = useState<TagList>();
  const [usage, setUsage] = useState<{ links: number; linkLimit: number | null }>();
  const [error, setError] = useState<string>();
  const changed = useCallback(() => setVersion((v) => v + 1), []);
  const panel = useRef<HTMLDivElement>(null);
  const shown = useRef(route);
  // A link's or a tag's statistics is a view of its own, entered and left by links: focus moves
  // to it (and back to the list), so keyboard and screen reader users start at its top.
  useEffect(() => {
    const before = shown.current;
    shown.current = route;
    if (before === route) return;
    const isDetail = (view: string) => view === 'link' || view === 'tag';
    if (isDetail(route.view) || isDetail(before.view)) panel.current?.focus();
  }, [route]);

  useEffect(() => {
    // `version` is read so that a change (or Try again) loads anew.
    void version;
    Promise.all([client.tags.list(), client.links.list({ per_page: 1 })]).then(
      ([tagList, links]) => {
        setTags(tagList);
        setUsage({ links: links.total, linkLimit: links.link_limit });
        setError(undefined);
      },
      (caught) => setError(formErrorOf(caught, messages).message),
    );
  }, [client, messages, version]);

  if (error) return <ErrorBanner message={error} onRetry={changed} />;
  const tab: Tab = route.view === 'link' ? 'links' : route.view === 'tag' ? 'tags' : route.view;
  return (
    <>
      <div className="row" style={{ gap: 32, marginBottom: 18 }}>
        {usage ? <PlanUsage label="links" used={usage.links} limit={usage.linkLimit} /> : null}
        {tags ? <PlanUsage label="tags" used={tags.tags.length} limit={tags.tag_limit} /> : null}
      </div>
      <div
        className="tabs"
        role="tablist"
        aria-label="Links, tags or overview"
        onKeyDown={(event) => {
          // Arrow keys move between the tabs (WAI-ARIA tabs pattern).
          if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
          const here = TABS.findIndex((item) => item.view === tab);
          const next = TABS[(here + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length] ?? TABS[0];
          navigate({ view: next.view });
          document.getElementById(`tab-${next.view}`)?.focus();
        }}
      >
        {TABS.map(({ view, label }) => (
          <button
            key={view}
            id={`tab-${view}`}
            type="button"
            role="tab"
            aria-selected={tab === view}
            aria-controls={`panel-${view}`}
            tabIndex={tab === view ? 0 : -1}
            onClick={() => navigate({ view })}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={-1} ref={panel} className="manage-panel">
        {route.view === 'links' ? (
          <LinksView
            tags={tags?.tags ?? []}
            version={version}
            onChanged={changed}
            statisticsHref={linkStatistics}
            emptyHint="No links yet. Open a page and click the Shortlinks button to shorten it."
          />
        ) : null}
        {route.view === 'link' ? (
          <>
            <a className="button small back-link" href={manageRouteHash({ view: 'links' })}>
              ← All links
            </a>
            <LinkAnalytics linkId={route.linkId} />
          </>
        ) : null}
        {route.view === 'tags' && tags ? <TagManager tags={tags.tags} onChanged={changed} statisticsHref={tagStatistics} /> : null}
        {route.view === 'tag' ? (
          <>
            <a className="button small back-link" href={manageRouteHash({ view: 'tags' })}>
              ← All tags
            </a>
            <TagAnalytics tagId={route.tagId} onOpenLink={openLinkStatistics} />
          </>
        ) : null}
        {route.view === 'overview' ? <AccountAnalytics onOpenLink={openLinkStatistics} /> : null}
      </div>
    </>
  );
}
