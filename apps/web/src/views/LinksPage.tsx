import type { Link as ShortLink } from '@shortlinks/client';
import { LinksView, useShortlinks } from '@shortlinks/ui';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { AccountState } from '../account.ts';
import { ExportPanel } from '../import-export/ExportPanel.tsx';
import { ImportPanel } from '../import-export/ImportPanel.tsx';
import { type Transfer, TransferButtons } from '../import-export/TransferButtons.tsx';
import { NewLinkForm } from '../links/NewLinkForm.tsx';
import { BASE, linksAddress, listViewOf, paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/**
 * The home view: every link of the account (search, tag filter, sort, pages, edit, delete, bulk
 * actions), a new one, and import and export (the export holds what the list shows). What the list shows is in the address (`?search=…&tag=…&sort=…&page=…`),
 * so a reload, Back and a bookmark show the same list.
 */
export function LinksPage({ account }: { account: AccountState }) {
  useDocumentTitle('Links');
  const { copyText, readOnly } = useShortlinks();
  const view = listViewOf(useSearch());
  const [, navigate] = useLocation();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ link: ShortLink; copied: boolean }>();
  const [transfer, setTransfer] = useState<Transfer>();

  return (
    <>
      <div className="page-head">
        <h1>Links</h1>
        {/* A viewer only looks: creating, importing and exporting need the role member. */}
        <div className="row page-actions" hidden={readOnly}>
          <TransferButtons open={transfer} onOpen={setTransfer} />
          <button
            type="button"
            className="button primary"
            aria-expanded={creating}
            onClick={() => {
              setCreating(!creating);
              setCreated(undefined);
            }}
          >
            New link
          </button>
        </div>
      </div>
      {transfer === 'import' ? <ImportPanel onImported={account.changed} onClose={() => setTransfer(undefined)} /> : null}
      {transfer === 'export' ? <ExportPanel view={view} tags={account.tags ?? []} onClose={() => setTransfer(undefined)} /> : null}
      {creating ? (
        <NewLinkForm
          tags={account.tags ?? []}
          onCancel={() => setCreating(false)}
          onCreated={(link) => {
            setCreating(false);
            setCreated({ link, copied: false });
            account.changed();
          }}
        />
      ) : null}
      {created ? (
        <div className="banner ok created" role="status">
          <span>
            Created <strong>{created.link.short_url}</strong>
          </span>
          <button
            type="button"
            className="button small"
            onClick={async () => setCreated({ ...created, copied: await copyText(created.link.short_url) })}
          >
            {created.copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      ) : null}
      <LinksView
        tags={account.tags ?? []}
        version={account.version}
        onChanged={account.changed}
        emptyHint={readOnly ? 'No links yet.' : 'No links yet. Create your first with New link.'}
        statisticsHref={(link) => `${BASE}${paths.link(link.id)}`}
        view={view}
        onViewChange={(next, { replace }) => navigate(linksAddress(next), { replace })}
        // A chip keeps the search and the order, and shows that tag's links from their first page.
        tagHref={(tag) => `${BASE}${linksAddress({ ...view, tagId: tag.id, page: 1 })}`}
        bulkActions
      />
    </>
  );
}
