import { TagManager } from '@shortlinks/ui';
import type { AccountState } from '../account.ts';
import { BASE, linksAddress, paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/** The tag manager; each tag's links (its link count) and statistics (its row's Statistics) are one click away. */
export function TagsPage({ account }: { account: AccountState }) {
  useDocumentTitle('Tags');
  return (
    <>
      <div className="page-head">
        <h1>Tags</h1>
      </div>
      {account.tags ? (
        <div className="panel tag-panel">
          <TagManager
            tags={account.tags}
            onChanged={account.changed}
            statisticsHref={(tag) => `${BASE}${paths.tag(tag.id)}`}
            linksHref={(tag) => `${BASE}${linksAddress({ tagId: tag.id })}`}
          />
        </div>
      ) : (
        <div className="spinner" role="status" aria-label="Loading tags" />
      )}
    </>
  );
}
