import type { ShortlinksClient } from '@shortlinks/client';
import { useCallback, useState } from 'react';
import { Router } from 'wouter';
import { Dashboard } from './Dashboard.tsx';
import { BASE } from './routes.ts';
import { SignIn } from './SignIn.tsx';
import { forgetKey, keepKey, storedKey } from './session/key-storage.ts';
import { clientFor } from './session/sign-in.ts';

interface Session {
  client: ShortlinksClient;
}

/** Signed in (the dashboard) or not (the sign-in form), and the switch between the two. */
export function App() {
  const [notice, setNotice] = useState<string>();
  const refused = useCallback(() => {
    forgetKey();
    setSession(undefined);
    setNotice('The server no longer accepts your API key. Sign in again.');
  }, []);
  // A key kept by an earlier sign-in is used at once; if it has been revoked since, the first
  // answer is a 401 and `refused` brings the sign-in form back.
  const [session, setSession] = useState<Session | undefined>(() => {
    const kept = storedKey();
    return kept ? { client: clientFor(window.location.origin, kept.key, refused) } : undefined;
  });

  return (
    <Router base={BASE}>
      {session ? (
        <Dashboard
          client={session.client}
          notice={notice}
          onSignOut={() => {
            forgetKey();
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
            setSession({ client });
          }}
        />
      )}
    </Router>
  );
}
