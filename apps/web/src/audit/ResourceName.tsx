import type { AuditEntry } from '@shortlinks/contract';
import { Link } from 'wouter';
import { paths } from '../routes.ts';

/** What an entry changed: a link leads to its page (which says when it is gone); anything else shows its kind and id. */
export function ResourceName({ resource }: { resource: AuditEntry['resource'] }) {
  if (resource.type === 'link') {
    return (
      <Link href={paths.link(resource.id)} className="audit-resource">
        link <code>{resource.id}</code>
      </Link>
    );
  }
  return (
    <span className="audit-resource">
      {resource.type} <code>{resource.id}</code>
    </span>
  );
}
