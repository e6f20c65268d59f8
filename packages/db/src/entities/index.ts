import type { InferKyselyDB } from '@mikro-orm/postgresql';
import { Account } from './account.ts';
import { ApiKey } from './api-key.ts';
import { Click } from './click.ts';
import { DenylistEntry } from './denylist-entry.ts';
import { Domain } from './domain.ts';
import { Link } from './link.ts';
import { LinkSearch } from './link-search.ts';
import { LinkTag } from './link-tag.ts';
import { Tag } from './tag.ts';

export { Account, ApiKey, Click, DenylistEntry, Domain, Link, LinkSearch, LinkTag, Tag };

export const entities = [Account, ApiKey, Click, DenylistEntry, Domain, Link, LinkSearch, LinkTag, Tag];

/** The tables as Kysely sees them, inferred from the entities (property names are column names). */
export type Database = InferKyselyDB<
  | typeof Account
  | typeof ApiKey
  | typeof Click
  | typeof DenylistEntry
  | typeof Domain
  | typeof Link
  | typeof LinkSearch
  | typeof LinkTag
  | typeof Tag
>;
