import { Link } from 'wouter';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

export function NotFoundPage() {
  useDocumentTitle('Not found');
  return (
    <section className="empty">
      <h1>Nothing here</h1>
      <p>This address is not a page of the dashboard.</p>
      <Link href={paths.links}>Go to your links</Link>
    </section>
  );
}
