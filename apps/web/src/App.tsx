import type { ShortlinksClient } from '@shortlinks/client';
import { useCallback, useEffect, useState } from 'react';
import { Router } from 'wouter';
import { Dashboard } from './Dashboard.tsx';
import { BASE } from './routes.ts';
import { SignIn } from './SignIn.tsx';
import { forgetKey, keepKey, storedKey } from './session/key-storage.ts';
import { clientFor } from './session/sign-in.ts';
import { announceSignOut, askOpenTabs, serveOpenTabs } from './session/tab-handoff.ts';

interface Session {
  client: ShortlinksClient;
  key: string;
}

/**
 * Signed in (the dashboard) or not (the sign-in form), and the switch between the two. A tab
 * opened without a kept key first asks the open dashboard tabs for the session's (tab-handoff.ts).
 */
export function App() {
  const [notice, setNotice] = useState<string>();
  const refused = useCallback(() => {
    forgetKey();
    setSession(undefined);
    setNotice('The server no longer accepts your API key. Sign in again.');
  }, []);
  const open = useCallback((key: string): Session => ({ client: clientFor(window.location.origin, key, refused), key }), [refused]);
  // A key kept by an earlier sign-in is used at once; if it has been revoked since, the first
  // answer is a 401 and `refused` brings the sign-in form back.
  const [session, setSession] = useState<Session | undefined>(() => {
    const kept = storedKey();
    return kept ? open(kept.key) : undefined;
  });
  const [asking, setAsking] = useState(session === undefined);

  useEffect(() => {
    if (!asking) return;
    let current = true;
    askOpenTabs().then((key) => {
      if (!current) return;
      if (key) {
        keepKey(key, false);
        setSession(open(key));
      }
      setAsking(false);
    });
    return () => {
      current = false;
    };
  }, [asking, open]);

  const key = session?.key;
  useEffect(() => {
    if (!key) return;
    return serveOpenTabs(key, () => {
      forgetKey();
      setSession(undefined);
      setNotice('You signed out in another tab. The key was removed from this browser.');
    });
  }, [key]);

  // Only for the moment it takes open tabs to answer (ASK_WAIT_MS at most).
  if (asking) return <div className="spinner" role="status" aria-label="Looking for a signed-in tab" />;

  return (
    <Router base={BASE}>
      {session ? (
        <Dashboard
          client={session.client}
          notice={notice}
          onSignOut={() => {
            forgetKey();
            announceSignOut();
            setSession(undefined);
            setNotice('You are signed out. The key was removed from this browser.');
          }}
        />
      ) : (
        <SignIn
          notice={notice}
          onRefused={refused}
          onSignedIn={(client, key, remember) => {
            const kept = keepKey(key, remember);
            setNotice(kept ? undefined : 'This browser does not allow storing the key: you stay signed in until you close this tab.');
            setSession({ client, key });
          }}
        />
      )}
    </Router>
  );
}
