import type { Link } from '@shortlinks/client';
import { expiryOf, ShortUrlCopy, TagChip, whenText } from '@shortlinks/ui';

/**
 * What a link is, on its page: the short URL (with Copy), where it leads, its tags, when it was
 * created and when it expires (both always shown: an edit never hides the creation date), and its
 * comments.
 */
export function LinkDetails({ link, now = Date.now }: { link: Link; now?: () => number }) {
  const expiry = expiryOf(link, now());
  return (
    <dl className="link-details" data-testid="link-details">
      <dt>Short link</dt>
      <dd className="link-details-short">
        <ShortUrlCopy shortUrl={link.short_url} />
      </dd>
      <dt>Destination</dt>
      <dd>
        <a className="link-details-destination" href={link.destination_url} target="_blank" rel="noreferrer">
          {link.destination_url}
        </a>
      </dd>
      <dt>Tags</dt>
      <dd className="link-details-tags">
        {link.tags.length === 0 ? <span className="muted">None</span> : link.tags.map((tag) => <TagChip key={tag.id} tag={tag} />)}
      </dd>
      <dt>Created</dt>
      <dd data-testid="link-created">{whenText(link.created_at)}</dd>
      <dt>Expiry</dt>
      <dd data-testid="link-expiry">
        {expiry ? (
          <>
            <span className={expiry.expired ? 'expiry expired' : 'expiry'}>{expiry.text}</span>{' '}
            <span className="muted">{expiry.visits}</span>
          </>
        ) : (
          <span className="muted">Never</span>
        )}
      </dd>
      <dt>Comments</dt>
      <dd className="link-details-comments">{link.comments ? link.comments : <span className="muted">None</span>}</dd>
    </dl>
  );
}
