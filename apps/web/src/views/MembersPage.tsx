import type { Me, Member, RoleName } from '@shortlinks/contract';
import { ErrorBanner } from '@shortlinks/ui';
import { useCallback, useEffect, useState } from 'react';
import { InvitationsPanel } from '../people/invitations/InvitationsPanel.tsx';
import { currentCsrfToken, PeopleError, people } from '../session/people-api.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

const RANK: Record<RoleName, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };
const ROLE_NAMES: RoleName[] = ['owner', 'admin', 'member', 'viewer'];

/**
 * The workspace's people and their roles. Only what the signed-in person's role allows is shown
 * (the server refuses the rest anyway): an admin changes and removes members and viewers and gives
 * those roles; an owner changes anyone. Everyone may leave, but the last owner.
 */
export function MembersPage({ me, onLeft }: { me: Me; onLeft: () => void }) {
  useDocumentTitle('Members');
  const [members, setMembers] = useState<Member[]>();
  const [error, setError] = useState<string>();
  const mine = me.workspace.role;
  const manages = (role: RoleName) => mine === 'owner' || (mine === 'admin' && RANK[role] < RANK.admin);
  const gives = ROLE_NAMES.filter((role) => mine === 'owner' || (mine === 'admin' && RANK[role] < RANK.admin));

  const load = useCallback(() => {
    people.members().then(setMembers, (caught) => setError(messageOf(caught)));
  }, []);
  useEffect(load, [load]);

  const act = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(messageOf(caught));
    }
    load();
  };

  return (
    <>
      <div className="page-head">
        <h1>Members</h1>
        <div className="row page-actions">
          <button
            type="button"
            className="button"
            onClick={() =>
              act(async () => {
                await people.leave();
                onLeft();
              })
            }
          >
            Leave {me.workspace.name}
          </button>
        </div>
      </div>
      {error ? <ErrorBanner message={error} /> : null}
      {members ? (
        <table className="panel members">
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const self = member.user_id === me.user.id;
              const editable = !self && manages(member.role);
              return (
                <tr key={member.user_id} data-testid={`member-${member.email}`}>
                  <td>
                    {member.email}
                    {self ? ' (you)' : ''}
                  </td>
                  <td>
                    {editable ? (
                      <select
                        aria-label={`Role of ${member.email}`}
                        value={member.role}
                        onChange={(event) => act(() => people.changeRole(member.user_id, event.target.value as RoleName))}
                      >
                        {gives.includes(member.role) ? null : <option value={member.role}>{member.role}</option>}
                        {gives.map((role) => (
                          <option key={role} value={role}>
                            {role}
                          </option>
                        ))}
                      </select>
                    ) : (
                      member.role
                    )}
                  </td>
                  <td>
                    {editable ? (
                      <button
                        type="button"
                        className="button small danger"
                        aria-label={`Remove ${member.email}`}
                        onClick={() => act(() => people.removeMember(member.user_id))}
                      >
                        Remove
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <div className="spinner" role="status" aria-label="Loading members" />
      )}
      {mine === 'owner' || mine === 'admin' ? <InvitationsPanel role={mine} csrfToken={currentCsrfToken()} /> : null}
    </>
  );
}

function messageOf(caught: unknown): string {
  return caught instanceof PeopleError ? caught.message : 'Something went wrong. Try again.';
}
