import type { InferKyselyDB } from '@mikro-orm/postgresql';
import { Account } from './account.ts';
import { ApiKey } from './api-key.ts';
import { AppUser } from './app-user.ts';
import { Click } from './click.ts';
import { DenylistEntry } from './denylist-entry.ts';
import { Invitation } from './invitation.ts';
import { Link } from './link.ts';
import { LinkSearch } from './link-search.ts';
import { LinkTag } from './link-tag.ts';
import { Membership } from './membership.ts';
import { PasswordLink } from './password-link.ts';
import { SsoIdentity } from './sso-identity.ts';
import { Tag } from './tag.ts';
import { PendingSignIn, TwoFactor } from './two-factor.ts';
import { UserSession } from './user-session.ts';

export {
  Account,
  ApiKey,
  AppUser,
  Click,
  DenylistEntry,
  Invitation,
  Link,
  LinkSearch,
  LinkTag,
  Membership,
  PasswordLink,
  PendingSignIn,
  SsoIdentity,
  Tag,
  TwoFactor,
  UserSession,
};

export const entities = [
  Account,
  ApiKey,
  AppUser,
  Click,
  DenylistEntry,
  Invitation,
  Link,
  LinkSearch,
  LinkTag,
  Membership,
  PasswordLink,
  PendingSignIn,
  SsoIdentity,
  Tag,
  TwoFactor,
  UserSession,
];

/** The tables as Kysely sees them, inferred from the entities (property names are column names). */
export type Database = InferKyselyDB<
  | typeof Account
  | typeof ApiKey
  | typeof AppUser
  | typeof Click
  | typeof DenylistEntry
  | typeof Invitation
  | typeof Link
  | typeof LinkSearch
  | typeof LinkTag
  | typeof Membership
  | typeof PasswordLink
  | typeof PendingSignIn
  | typeof SsoIdentity
  | typeof Tag
  | typeof TwoFactor
  | typeof UserSession
>;
