/**
 * The browser session across the dashboard's tabs (docs/dashboard.md, *Where the key is kept*).
 * A key kept for the session lives in one tab's sessionStorage; a tab opened later asks the open
 * dashboard tabs of this browser for it over a BroadcastChannel (same origin only, never leaves
 * the browser), and signing out in one tab signs out all. Once every dashboard tab is closed,
 * nothing holds the key and the next tab asks for it again.
 *
 * Only pages of the dashboard may ask. Every page of the origin can open a BroadcastChannel (the
 * API reference at /docs is one), so the channel is named after a secret that only dashboard pages
 * can read: a cookie with `Path=/app`, which `document.cookie` shows to pages under /app and to no
 * other (docs/security.md, *The dashboard's tabs*). A page elsewhere hears nothing and is answered
 * nothing. The cookie never holds the key, and the server ignores it.
 */
const CHANNEL = 'shortlinks.dashboard.session';

/** The cookie naming this browser session's channel, visible to dashboard pages only. */
export const HANDOFF_COOKIE = 'shortlinks_tabs';
const DASHBOARD_PATH = '/app';

/** How long a new tab waits for an open one to answer: tabs answer in milliseconds. */
export const ASK_WAIT_MS = 250;

type Message = { kind: 'ask' } | { kind: 'key'; key: string } | { kind: 'signed-out'; from: string };

/**
 * This tab, so it does not take its own sign-out for another tab's (a tab's channels hear each
 * other). Not a secret; crypto.randomUUID would need HTTPS, which a dashboard on a LAN may lack.
 */
const THIS_TAB = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/**
 * The secret this tab serves and announces on: the one it was handed the key through, or one it
 * made when it started serving. Never one it merely found in the cookie: a page elsewhere on the
 * origin can write a cookie for /app, and must not choose the channel a signed-in tab answers on.
 */
let tabSecret: string | undefined;

/** 128 random bits as hex; getRandomValues, unlike randomUUID, works without HTTPS too. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function cookieSecret(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const entry = document.cookie.split('; ').find((cookie) => cookie.startsWith(`${HANDOFF_COOKIE}=`));
  const value = entry?.slice(HANDOFF_COOKIE.length + 1);
  return value && /^[0-9a-f]{32}$/.test(value) ? value : undefined;
}

function writeCookie(value: string, extra = ''): void {
  if (typeof document === 'undefined') return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // A session cookie: gone with the browser session, like the key kept for it.
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API needs HTTPS, which a dashboard on a LAN may lack.
  document.cookie = `${HANDOFF_COOKIE}=${value}; Path=${DASHBOARD_PATH}; SameSite=Strict${secure}${extra}`;
}

/** A browser without BroadcastChannel (none that runs this dashboard) just keeps tabs apart. */
function channel(secret: string): BroadcastChannel | undefined {
  return typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(`${CHANNEL}.${secret}`);
}

/** The key of an open, signed-in dashboard tab, or undefined when none answers in time. */
export function askOpenTabs(waitMs = ASK_WAIT_MS): Promise<string | undefined> {
  const secret = cookieSecret();
  const asking = secret === undefined ? undefined : channel(secret);
  if (!secret || !asking) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (key: string | undefined) => {
      clearTimeout(timer);
      asking.close();
      if (key !== undefined) tabSecret = secret;
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
 * While this tab is signed in: answers other dashboard tabs' asks with `key`, and calls
 * `signedOutElsewhere` when another tab signs out. Returns the function that stops both.
 */
export function serveOpenTabs(key: string, signedOutElsewhere: () => void): () => void {
  tabSecret ??= newSecret();
  // The tab that last started serving is the one new tabs ask.
  writeCookie(tabSecret);
  const serving = channel(tabSecret);
  if (!serving) return () => undefined;
  serving.onmessage = ({ data }: MessageEvent<Message>) => {
    if (data?.kind === 'ask') serving.postMessage({ kind: 'key', key } satisfies Message);
    if (data?.kind === 'signed-out' && data.from !== THIS_TAB) signedOutElsewhere();
  };
  return () => serving.close();
}

/** Tells the other tabs this browser signed out: they forget the key too, and the secret goes. */
export function announceSignOut(): void {
  const secret = tabSecret ?? cookieSecret();
  tabSecret = undefined;
  writeCookie('', '; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  const announcing = secret === undefined ? undefined : channel(secret);
  if (!announcing) return;
  announcing.postMessage({ kind: 'signed-out', from: THIS_TAB } satisfies Message);
  announcing.close();
}
