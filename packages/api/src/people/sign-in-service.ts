import type { Me } from '@shortlinks/contract';
import type { Caller } from '../accounts/caller.ts';
import { AppError } from '../errors.ts';
import type { PasswordLinkService } from './password-links.ts';
import type { SessionService } from './session-service.ts';
import type { WebExchange } from './sign-in-attempts.ts';
import type { UserService } from './user-service.ts';

/**
 * Signing in and out of the dashboard, and what the dashboard learns of who is signed in
 * (docs/accounts.md, "Sessions"). Every sign-in starts a new session with a new secret (the cookie
 * is rotated), and ends the one the browser had.
 */
export class SignInService {
  readonly #users: UserService;
  readonly #sessions: SessionService;
  readonly #links: PasswordLinkService;
  /** Asks for a second factor after the password, when the person has one (set in services.ts). */
  secondStep?: (web: WebExchange, userId: string) => Promise<void>;

  constructor(users: UserService, sessions: SessionService, links: PasswordLinkService) {
    this.#users = users;
    this.#sessions = sessions;
    this.#links = links;
  }

  /**
   * Signs in with email and password. Unknown email and wrong password answer alike
   * (INVALID_CREDENTIALS, same work: UserService.verifyCredentials); failures are counted per email
   * and per address, and past the limit every attempt is refused with RATE_LIMITED until it passes.
   */
  async signIn(web: WebExchange, previous: Caller | null, email: string, password: string): Promise<Me> {
    await web.signInAttempts.admit(email, web.address);
    const user = await this.#users.verifyCredentials(email, password);
    if (!user) {
      await web.signInAttempts.failed(email, web.address);
      throw new AppError('INVALID_CREDENTIALS');
    }
    // With two-factor on, no session yet: a second step (two-factor-service.ts) throws TWO_FACTOR_REQUIRED.
    await this.secondStep?.(web, user.id);
    return this.#startSession(web, previous, user.id, undefined);
  }

  /** Uses a one-time link (first owner, or a new password) and signs its person in. */
  async usePasswordLink(web: WebExchange, previous: Caller | null, token: string, password: string, email?: string): Promise<Me> {
    const { userId, accountId } = await this.#links.use(token, password, email, web.address);
    return this.#startSession(web, previous, userId, accountId ?? undefined);
  }

  async signOut(web: WebExchange | undefined, caller: Caller): Promise<void> {
    if (caller.user && caller.session) await this.#sessions.end(caller.user.id, caller.session.id);
    web?.clearSessionCookie();
  }

  async signOutEverywhere(web: WebExchange | undefined, caller: Caller): Promise<void> {
    if (caller.user) await this.#sessions.endAll(caller.user.id);
    web?.clearSessionCookie();
  }

  /** Moves the caller's session to another of their workspaces. */
  async switchWorkspace(caller: Caller, workspaceId: string): Promise<Me> {
    const { user, session } = personOf(caller);
    const workspaces = await this.#users.workspaces(user.id);
    if (!workspaces.some((workspace) => workspace.id === workspaceId)) {
      throw new AppError('FORBIDDEN', 'You are not a member of that workspace');
    }
    if (workspaceId !== caller.accountId) await this.#sessions.switchWorkspace(session.id, caller.accountId, workspaceId);
    return this.#me(user, workspaceId, session.csrfToken);
  }

  /** Who is signed in, the workspace they work in, their other workspaces, and the CSRF token. */
  me(caller: Caller): Promise<Me> {
    const { user, session } = personOf(caller);
    return this.#me(user, caller.accountId, session.csrfToken);
  }

  /** Starts a session of `userId` (an invitation accepted; its workspace preferred), as a sign-in does. */
  startSessionFor(web: WebExchange, previous: Caller | null, userId: string, preferred?: string): Promise<Me> {
    return this.#startSession(web, previous, userId, preferred);
  }

  async #startSession(web: WebExchange, previous: Caller | null, userId: string, preferred: string | undefined): Promise<Me> {
    const user = await this.#users.get(userId);
    const workspaces = await this.#users.workspaces(userId);
    const workspace = workspaces.find((entry) => entry.id === preferred) ?? workspaces[0];
    if (!user || !workspace) throw new AppError('FORBIDDEN', 'You belong to no workspace; ask a workspace’s admin to add you');
    // The browser's previous session, whoever's it was, ends: one browser, one session.
    if (previous?.user && previous.session) await this.#sessions.end(previous.user.id, previous.session.id);
    const started = await this.#sessions.start(userId, workspace.id, { userAgent: web.userAgent, ip: web.address });
    web.setSessionCookie(started.token, started.expiresAt);
    return { user: { id: user.id, email: user.email }, workspace, workspaces, csrf_token: started.csrfToken };
  }

  async #me(user: { id: string; email: string }, accountId: string, csrfToken: string): Promise<Me> {
    const workspaces = await this.#users.workspaces(user.id);
    const workspace = workspaces.find((entry) => entry.id === accountId);
    if (!workspace) throw new AppError('FORBIDDEN', 'You are no longer a member of this workspace');
    return { user: { id: user.id, email: user.email }, workspace, workspaces, csrf_token: csrfToken };
  }
}

/** The person and session of a caller that signed in (the procedure's meta says `person`). */
export function personOf(caller: Caller) {
  if (!caller.user || !caller.session) throw new AppError('FORBIDDEN', 'Only a person signed in to the dashboard can do this');
  return { user: caller.user, session: caller.session };
}
