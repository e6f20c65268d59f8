export { CONNECT_TIMEOUT_MS, DEFAULT_QUERY_TIMEOUT_MS } from './bounded-client.ts';
export {
  ACCOUNT_LINKS_CHANNEL,
  announceCallerChange,
  CALLER_CHANGES_CHANNEL,
  type ChangeHandlers,
  ChangeListener,
  DEFAULT_HEARTBEAT,
  DOMAIN_CHANGES_CHANNEL,
  type Heartbeat,
  LINK_CHANGES_CHANNEL,
} from './change-announcements.ts';
export { isDatabaseUnavailable } from './database-unavailable.ts';
export {
  Account,
  ApiKey,
  AppUser,
  Click,
  type Database,
  DenylistEntry,
  Domain,
  entities,
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
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEvent,
} from './entities/index.ts';
export { createOrm, migrate, type Orm, type OrmOptions } from './orm.ts';
export { type PoolErrors, poolErrorsOf } from './pool-errors.ts';
export { queuePool } from './queue-pool.ts';
export { violatedUniqueIndex } from './unique-violation.ts';
