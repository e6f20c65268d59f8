/**
 * The limit on failed sign-ins, per email and per client address (docs/security.md, "Sign-in"),
 * counted by the server (in its memory, or in Redis for every instance). `admit` throws 429
 * RATE_LIMITED with `Retry-After` when either is spent; `failed` counts one failure of both.
 */
export interface SignInAttempts {
  admit(email: string, address: string): Promise<void>;
  failed(email: string, address: string): Promise<void>;
}

/** What a procedure of the dashboard's session needs of the HTTP exchange (tRPC only). */
export interface WebExchange {
  /** The client's address as the server sees it (behind a trusted proxy, the forwarded one). */
  address: string;
  userAgent: string | undefined;
  /** Sets the session cookie (HttpOnly, SameSite=Lax, Secure over HTTPS). */
  setSessionCookie(token: string, expiresAt: Date): void;
  clearSessionCookie(): void;
  signInAttempts: SignInAttempts;
  /** The short-lived cookie of a sign-in's second step (two-factor.ts's code): HttpOnly, for /trpc only. */
  pendingSignIn?: { set(token: string, maxAgeSeconds: number): void; read(): string | undefined; clear(): void };
}
