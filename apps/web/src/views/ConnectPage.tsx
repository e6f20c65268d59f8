import type { CONNECT_CLIENTS, ConnectClient, Me } from '@shortlinks/contract';

/**
 * What each client asks (the contract's CONNECT_CLIENTS, which the server grants): written here
 * because importing the contract's values would bundle zod into the dashboard; the type keeps the
 * two the same.
 */
const ASKED: typeof CONNECT_CLIENTS = {
  extension: { name: 'Browser extension', scopes: ['links.write', 'tags.write', 'analytics.read', 'domains.read'] },
};
/** The contract's ConnectChallengeSchema: base64url of a SHA-256, 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

import { useState } from 'react';
import { PeopleError, people } from '../session/people-api.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/** What each scope lets the client do, in the words the page shows. */
const SCOPE_WORDS: Record<string, string> = {
  'links.write': 'create, change and delete links (and read them)',
  'links.read': 'read your links',
  'tags.write': 'create and change tags (and read them)',
  'tags.read': 'read your tags',
  'analytics.read': 'read click statistics',
  'domains.read': "read the workspace's branded domains",
};

/** The request the address carries (`?challenge=…&client=extension`), or why it cannot be answered. */
function requestOf(search: string): { challenge: string; client: ConnectClient } | { problem: string } {
  const query = new URLSearchParams(search);
  const client = query.get('client') ?? '';
  const challenge = query.get('challenge') ?? '';
  if (!Object.hasOwn(ASKED, client)) return { problem: 'This address does not name a client that can connect.' };
  if (!CHALLENGE.test(challenge)) return { problem: 'This address is incomplete: start again from the extension.' };
  return { challenge, client: client as ConnectClient };
}

type State = { kind: 'asking' } | { kind: 'busy' } | { kind: 'approved' } | { kind: 'declined' } | { kind: 'failed'; message: string };

/**
 * Connect (docs/accounts.md, "Connect"): a client (the browser extension) asks for a key. The
 * signed-in person sees who asks and for what, and approves or declines; the extension then
 * fetches the key itself with the secret only it holds. No key passes through this page.
 */
export function ConnectPage({ me }: { me: Me | undefined }) {
  useDocumentTitle('Connect');
  const [state, setState] = useState<State>({ kind: 'asking' });
  const request = requestOf(window.location.search);
  if (!me) {
    return (
      <section className="empty">
        <h1>Connect</h1>
        <p>Sign out, then sign in with your email and password to connect a client: a pasted key cannot approve one.</p>
      </section>
    );
  }
  if ('problem' in request) {
    return (
      <section className="empty">
        <h1>Connect</h1>
        <p role="alert">{request.problem}</p>
      </section>
    );
  }
  const asked = ASKED[request.client];
  const answer = async (approve: boolean) => {
    setState({ kind: 'busy' });
    try {
      if (approve) await people.connectApprove(request.challenge, request.client);
      else await people.connectDecline(request.challenge, request.client);
      setState({ kind: approve ? 'approved' : 'declined' });
    } catch (error) {
      setState({ kind: 'failed', message: error instanceof PeopleError ? error.message : String(error) });
    }
  };
  return (
    <section className="connect-page" aria-labelledby="connect-title" style={{ maxWidth: 560 }}>
      <h1 id="connect-title">Connect the {asked.name.toLowerCase()}</h1>
      <p>
        The {asked.name.toLowerCase()} asks for an API key to <strong>{me.workspace.name}</strong>, acting as you ({me.user.email}), that
        may:
      </p>
      <ul data-testid="connect-scopes">
        {asked.scopes.map((scope) => (
          <li key={scope}>
            <code>{scope}</code>: {SCOPE_WORDS[scope] ?? scope}
          </li>
        ))}
      </ul>
      <p className="muted">Approve only if you just clicked Connect in your extension. You can revoke the key at any time.</p>
      {state.kind === 'approved' ? (
        <div className="banner ok" role="status">
          Approved. The extension is connecting; you can close this tab.
        </div>
      ) : state.kind === 'declined' ? (
        <div className="banner info" role="status">
          Declined. The extension gets no key.
        </div>
      ) : (
        <div className="row">
          <button type="button" className="button primary" disabled={state.kind === 'busy'} onClick={() => answer(true)}>
            Approve
          </button>
          <button type="button" className="button" disabled={state.kind === 'busy'} onClick={() => answer(false)}>
            Decline
          </button>
        </div>
      )}
      {state.kind === 'failed' ? (
        <div className="banner error" role="alert" style={{ marginTop: 12 }}>
          {state.message}
        </div>
      ) : null}
    </section>
  );
}
