import type { ReactNode } from 'react';
import { AcceptInvitation } from './invitations/AcceptInvitation.tsx';
import { InvitationsPage } from './invitations/InvitationsPage.tsx';

/**
 * The people pages that stand outside the dashboard's own sign-in (docs/accounts.md): an
 * invitation's page, opened by someone who may have no account yet, and the invitations page.
 * Undefined for every other address, which the dashboard serves.
 */
export function peoplePage(pathname: string): ReactNode | undefined {
  const page = pathname.replace(/\/+$/, '');
  if (page === '/app/invitation') return <AcceptInvitation />;
  if (page === '/app/invitations') return <InvitationsPage />;
  return undefined;
}
