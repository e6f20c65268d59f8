import type { ShortlinksClient } from '@shortlinks/client';
import type { Me } from '@shortlinks/contract';
import { useCallback, useEffect, useState } from 'react';
import { Router } from 'wouter';
import { Dashboard } from './Dashboard.tsx';
import { PasswordLinkPage } from './PasswordLinkPage.tsx';
import { BASE, passwordLinkPurposeOf } from './routes.ts';
import { SignIn } from './SignIn.tsx';
import { forgetKey, keepKey, storedKey } from './session/key-storage.ts';
import { people } from './session/people-api.ts';
import { personClient } from './session/person-client.ts';
import { clientFor } from './session/sign-in.ts';
import { announceSignOut, askOpenTabs, serveOpenTabs } from './session/tab-handoff.ts';

/** Signed in with an API key (pasted), or as a person with the session cookie (email and password). */
export type Session = { kind: 'key'; client: ShortlinksClient; key: string } | { kind: 'person'; client: ShortlinksClient; me: Me };

/**
 * Signed in (the dashboard) or not (the sign-in form), and the switch between the two. A person's
 * session is the server's (its cookie, which no script reads): the dashboard asks `auth.me` who is
 * signed in. Without one, a tab opened without a kept key asks the open dashboard tabs for the
 * session's key (tab-handoff.ts). A one-time link (first owner, new password) has a page of its own.
 */
export function App() {
  const [notice, setNotice] = useState<string>();
  const refused = useCallback(() => {
    forgetKey();
    setSession(undefined);
    setNotice('The server no longer accepts your API key. Sign in again.');
  }, []);
  const ended = useCallback(() => {
    setSession(undefined);
    setNotice('Your session has ended. Sign in again.');
  }, []);
  const open = useCallback(
    (key: string): Session => ({ kind: 'key', client: clientFor(window.location.origin, key, refused), key }),
    [refused],
  );
  const openPerson = useCallback(
    (me: Me): Session => ({ kind: 'person', client: personClient(window.location.origin, ended), me }),
    [ended],
  );
  // A key kept by an earlier sign-in is used at once; if it has been revoked since, the first
  // answer is a 401 and `refused` brings the sign-in form back.
  const [session, setSession] = useState<Session | undefined>(() => {
    const kept = storedKey();
    return kept ? open(kept.key) : undefined;
  });
  const linkPurpose = passwordLinkPurposeOf(window.location.pathname);
  const [asking, setAsking] = useState(session === undefined && linkPurpose === undefined);

  useEffect(() => {
    if (!asking) return;
    let current = true;
    (async () => {
      // The browser's session cookie, if it has one the server still knows.
      const me = await people.me().catch(() => undefined);
      if (!current) return;
      if (me) {
        setSession(openPerson(me));
        setAsking(false);
        return;
      }
      const key = await askOpenTabs();
      if (!current) return;
      if (key) {
        keepKey(key, false);
        setSession(open(key));
      }
      setAsking(false);
    })();
    return () => {
      current = false;
    };
  }, [asking, open, openPerson]);

  const key = session?.kind === 'key' ? session.key : undefined;
  useEffect(() => {
    if (!key) return;
    return serveOpenTabs(key, () => {
      forgetKey();
      setSession(undefined);
      setNotice('You signed out in another tab. The key was removed from this browser.');
    });
  }, [key]);

  if (linkPurpose && !session) {
    return (
      <PasswordLinkPage
        purpose={linkPurpose}
        onSignedIn={(me) => {
          window.history.replaceState(null, '', `${BASE}/`);
          setSession(openPerson(me));
        }}
      />
    );
  }

  // Only for the moment it takes the server and open tabs to answer.
  if (asking) return <div className="spinner" role="status" aria-label="Looking for a signed-in tab" />;

  const signOut = async () => {
    if (session?.kind === 'person') {
      await people.signOut().catch(() => undefined);
      setSession(undefined);
      setNotice('You are signed out.');
      return;
    }
    forgetKey();
    announceSignOut();
    setSession(undefined);
    setNotice('You are signed out. The key was removed from this browser.');
  };

  return (
    <Router base={BASE}>
      {session ? (
        <Dashboard
          // A new workspace is a new dashboard: nothing of the last one's state is kept.
          key={session.kind === 'person' ? session.me.workspace.id : 'key'}
          session={session}
          notice={notice}
          onSignOut={signOut}
          onPersonChanged={(me) => setSession(me ? openPerson(me) : undefined)}
        />
      ) : (
        <SignIn
          notice={notice}
          onRefused={refused}
          onPersonSignedIn={(me) => {
            setNotice(undefined);
            setSession(openPerson(me));
          }}
          onSignedIn={(client, key, remember) => {
            const kept = keepKey(key, remember);
            setNotice(kept ? undefined : 'This browser does not allow storing the key: you stay signed in until you close this tab.');
            setSession({ kind: 'key', client, key });
          }}
        />
      )}
    </Router>
  );
}
