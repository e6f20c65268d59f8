/**
 * The browser session across the dashboard's tabs (docs/dashboard.md, *Where the key is kept*).
 * A key kept for the session lives in one tab's sessionStorage; a tab opened later asks the open
 * dashboard tabs of this browser for it over a BroadcastChannel (same origin only, never leaves
 * the browser), and signing out in one tab signs out all. Once every dashboard tab is closed,
 * nothing holds the key and the next tab asks for it again.
 */
const CHANNEL = 'shortlinks.dashboard.session';

/** How long a new tab waits for an open one to answer: tabs answer in milliseconds. */
export const ASK_WAIT_MS = 250;

type Message = { kind: 'ask' } | { kind: 'key'; key: string } | { kind: 'signed-out'; from: string };

/**
 * This tab, so it does not take its own sign-out for another tab's (a tab's channels hear each
 * other). Not a secret; crypto.randomUUID would need HTTPS, which a dashboard on a LAN may lack.
 */
const THIS_TAB = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** A browser without BroadcastChannel (none that runs this dashboard) just keeps tabs apart. */
function channel(): BroadcastChannel | undefined {
  return typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(CHANNEL);
}

/** The key of an open, signed-in dashboard tab, or undefined when none answers in time. */
export function askOpenTabs(waitMs = ASK_WAIT_MS): Promise<string | undefined> {
  const asking = channel();
  if (!asking) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (key: string | undefined) => {
      clearTimeout(timer);
      asking.close();
      resolve(key);
    };
    const timer = setTimeout(() => done(undefined), waitMs);
    asking.onmessage = ({ data }: MessageEvent<Message>) => {
      if (data?.kind === 'key' && typeof data.key === 'string') done(data.key);
    };
    asking.postMessage({ kind: 'ask' } satisfies Message);
  });
}

/**
 * While this tab is signed in: answers other tabs' asks with `key`, and calls `signedOutElsewhere`
 * when another tab signs out. Returns the function that stops both.
 */
export function serveOpenTabs(key: string, signedOutElsewhere: () => void): () => void {
  const serving = channel();
  if (!serving) return () => undefined;
  serving.onmessage = ({ data }: MessageEvent<Message>) => {
    if (data?.kind === 'ask') serving.postMessage({ kind: 'key', key } satisfies Message);
    if (data?.kind === 'signed-out' && data.from !== THIS_TAB) signedOutElsewhere();
  };
  return () => serving.close();
}

/** Tells the other tabs this browser signed out: they forget the key too. */
export function announceSignOut(): void {
  const announcing = channel();
  if (!announcing) return;
  announcing.postMessage({ kind: 'signed-out', from: THIS_TAB } satisfies Message);
  announcing.close();
}
