import type { ConnectClaim } from '@shortlinks/contract';

/** How often the options page asks whether the person answered, and for how long (the server's answers last 10 minutes). */
export const CLAIM_EVERY_MS = 1_500;
export const CLAIM_FOR_MS = 10 * 60_000;

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * Connect (docs/accounts.md, "Connect"), like OAuth's PKCE: a random verifier that never leaves
 * the extension until it claims the key, and the dashboard's address carrying only its SHA-256.
 */
export async function newConnectRequest(serverUrl: string): Promise<{ verifier: string; dashboardUrl: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  const dashboardUrl = `${serverUrl}/app/connect?${new URLSearchParams({ challenge, client: 'extension' })}`;
  return { verifier, dashboardUrl };
}

/** One claim: whether the person answered, and the key once they approved. Sent without cookies: the verifier is the only credential. */
export async function claimKey(serverUrl: string, verifier: string, fetchImpl: typeof fetch = fetch): Promise<ConnectClaim> {
  const response = await fetchImpl(`${serverUrl}/trpc/connect.claim`, {
    method: 'POST',
    credentials: 'omit',
    cache: 'no-store',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ verifier }),
  });
  const body = (await response.json()) as { result?: { data?: ConnectClaim }; error?: { message?: string } };
  if (!response.ok || !body.result?.data) throw new Error(body.error?.message ?? `The server answered ${response.status}`);
  return body.result.data;
}

/**
 * Asks until the person answers (or `signal` stops it, or 10 minutes pass): the key when approved,
 * or why there is none. A network failure on the way is retried.
 */
export async function waitForKey(
  serverUrl: string,
  verifier: string,
  signal: AbortSignal,
): Promise<{ key: string } | { problem: 'declined' | 'expired' | 'stopped' }> {
  const until = Date.now() + CLAIM_FOR_MS;
  while (Date.now() < until) {
    if (signal.aborted) return { problem: 'stopped' };
    const answer = await claimKey(serverUrl, verifier).catch(() => undefined);
    if (answer?.status === 'approved' && answer.key) return { key: answer.key };
    if (answer?.status === 'declined' || answer?.status === 'expired') return { problem: answer.status };
    await new Promise((resolve) => setTimeout(resolve, CLAIM_EVERY_MS));
  }
  return { problem: 'expired' };
}
