export { Account, ApiKey, type Database, entities, Link, LinkTag, Tag } from './entities/index.ts';
export { createOrm, migrate, type Orm, type OrmOptions } from './orm.ts';
export { violatedUniqueIndex } from './unique-violation.ts';
