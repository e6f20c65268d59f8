import { TagChip, TagManager } from '@shortlinks/ui';
import { Link } from 'wouter';
import type { AccountState } from '../account.ts';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/** The tag manager, and each tag's statistics one click away. */
export function TagsPage({ account }: { account: AccountState }) {
  useDocumentTitle('Tags');
  return (
    <>
      <div className="page-head">
        <h1>Tags</h1>
      </div>
      {account.tags ? (
        <TagManager tags={account.tags} onChanged={account.changed} />
      ) : (
        <div className="spinner" role="status" aria-label="Loading tags" />
      )}
      {account.tags && account.tags.length > 0 ? (
        <section className="panel tag-stats-list" aria-labelledby="tag-stats-heading">
          <h2 id="tag-stats-heading">Statistics by tag</h2>
          <ul>
            {account.tags.map((tag) => (
              <li key={tag.id}>
                <Link href={paths.tag(tag.id)} aria-label={`Statistics of the tag ${tag.name}`}>
                  <TagChip tag={tag} />
                </Link>
                <span className="muted small">
                  {tag.link_count} {tag.link_count === 1 ? 'link' : 'links'}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
