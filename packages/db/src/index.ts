export { Account, ApiKey, Click, type Database, DenylistEntry, entities, Link, LinkTag, Tag } from './entities/index.ts';
export { announceLinkChange, LINK_CHANGES_CHANNEL, type LinkChangeHandlers, LinkChangeListener } from './link-changes.ts';
export { createOrm, migrate, type Orm, type OrmOptions } from './orm.ts';
export { violatedUniqueIndex } from './unique-violation.ts';
