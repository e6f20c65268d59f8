import type { InferKyselyDB } from '@mikro-orm/postgresql';
import { Account } from './account.ts';
import { ApiKey } from './api-key.ts';
import { AppUser } from './app-user.ts';
import { AuditEntry } from './audit-entry.ts';
import { Click } from './click.ts';
import { ConnectRequest } from './connect-request.ts';
import { DenylistEntry } from './denylist-entry.ts';
import { Domain } from './domain.ts';
import { Invitation } from './invitation.ts';
import { Link } from './link.ts';
import { LinkClickLimit } from './link-click-limit.ts';
import { LinkSearch } from './link-search.ts';
import { LinkTag } from './link-tag.ts';
import { Membership } from './membership.ts';
import { PasswordLink } from './password-link.ts';
import { ServerSecret } from './server-secret.ts';
import { SsoIdentity } from './sso-identity.ts';
import { Tag } from './tag.ts';
import { PendingSignIn, TwoFactor } from './two-factor.ts';
import { UserSession } from './user-session.ts';
import { Webhook, WebhookAttempt, WebhookDelivery, WebhookEvent } from './webhook.ts';

export {
  Account,
  ApiKey,
  AppUser,
  AuditEntry,
  Click,
  ConnectRequest,
  DenylistEntry,
  Domain,
  Invitation,
  Link,
  LinkClickLimit,
  LinkSearch,
  LinkTag,
  Membership,
  PasswordLink,
  PendingSignIn,
  ServerSecret,
  SsoIdentity,
  Tag,
  TwoFactor,
  UserSession,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEvent,
};

export const entities = [
  Account,
  ApiKey,
  Click,
  DenylistEntry,
  Domain,
  Link,
  LinkClickLimit,
  LinkSearch,
  LinkTag,
  ServerSecret,
  Tag,
  Webhook,
  WebhookEvent,
  WebhookDelivery,
  WebhookAttempt,
  AppUser,
  Membership,
  PasswordLink,
  UserSession,
  Invitation,
  TwoFactor,
  PendingSignIn,
  SsoIdentity,
  ConnectRequest,
  AuditEntry,
];

/** The tables as Kysely sees them, inferred from the entities (property names are column names). */
export type Database = InferKyselyDB<
  | typeof Account
  | typeof ApiKey
  | typeof Click
  | typeof ConnectRequest
  | typeof DenylistEntry
  | typeof Domain
  | typeof Link
  | typeof LinkClickLimit
  | typeof LinkSearch
  | typeof LinkTag
  | typeof ServerSecret
  | typeof Tag
  | typeof Webhook
  | typeof WebhookEvent
  | typeof WebhookDelivery
  | typeof WebhookAttempt
  | typeof AppUser
  | typeof Membership
  | typeof PasswordLink
  | typeof UserSession
  | typeof Invitation
  | typeof TwoFactor
  | typeof PendingSignIn
  | typeof SsoIdentity
  | typeof AuditEntry
>;
