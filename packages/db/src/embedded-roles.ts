import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS } from './bounded-client.ts';
import type { RoleCredentials } from './embedded-credentials.ts';

export interface ApplicationDatabase {
  /** The superuser's URL to the cluster's `postgres` database. */
  adminUrl: string;
  /** The application database's name. */
  database: string;
  app: RoleCredentials;
}

/**
 * As the superuser, gives the application a role of its own and makes it the owner of its
 * database; returns how many objects changed owner.
 *
 * - The role can log in and nothing more: not a superuser, no CREATEDB, no CREATEROLE. That is
 *   checked on every start, and put right if someone changed it.
 * - It owns the database (created when missing), and so its `public` schema, which belongs to
 *   the database's owner: enough for migrations to create tables, indexes and trusted extensions
 *   such as pg_trgm.
 * - Objects of that database owned by another role become its own. The previous version connected
 *   as the superuser, which owned everything; REASSIGN OWNED cannot move what belongs to the
 *   bootstrap superuser, so each object is altered.
 *
 * Starts sharing a cluster take their turns (an advisory lock), so the role is created once.
 */
export async function prepareApplicationDatabase({ adminUrl, database, app }: ApplicationDatabase): Promise<number> {
  const role = pg.escapeIdentifier(app.user);
  return withClient(adminUrl, async (admin) => {
    await admin.query("select pg_advisory_lock(hashtext('shortlinks: application role'))");
    const existing = await admin.query<{ excess: boolean }>(
      `select rolsuper or rolcreatedb or rolcreaterole or rolreplication or rolbypassrls or not rolcanlogin as excess
       from pg_roles where rolname = $1`,
      [app.user],
    );
    if (existing.rows.length === 0) {
      await admin.query(`create role ${role} login password ${pg.escapeLiteral(scramVerifier(app.password))}`);
    } else if (existing.rows[0]?.excess) {
      await admin.query(`alter role ${role} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls`);
    }

    const owner = await admin.query<{ owner: string }>('select pg_get_userbyid(datdba) as owner from pg_database where datname = $1', [
      database,
    ]);
    if (owner.rows.length === 0) await admin.query(`create database ${pg.escapeIdentifier(database)} owner ${role}`);
    else if (owner.rows[0]?.owner !== app.user) await admin.query(`alter database ${pg.escapeIdentifier(database)} owner to ${role}`);

    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${encodeURIComponent(database)}`;
    return withClient(databaseUrl.href, async (client) => {
      const { rows } = await client.query<{ statement: string }>(OWNERSHIP_TRANSFERS, [app.user]);
      if (rows.length === 0) return 0;
      await client.query('begin');
      for (const { statement } of rows) await client.query(statement);
      await client.query('commit');
      return rows.length;
    });
  });
}

/**
 * `alter … owner to $1` for every schema, table, view, sequence, routine and type of the current
 * database owned by a role other than $1 or the database's owner, outside PostgreSQL's own schemas
 * and extensions. Indexes, and the sequences behind serial and identity columns, follow their table.
 */
const OWNERSHIP_TRANSFERS = `
  with kept(oid) as (select oid from pg_roles where rolname = $1 union all select 'pg_database_owner'::regrole::oid),
    own_schema as (select oid from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'),
    extension_member as (select classid, objid from pg_depend where deptype = 'e')
  select format('alter schema %I owner to %I', n.nspname, $1) as statement
    from pg_namespace n
    where n.oid in (select oid from own_schema) and n.nspowner not in (select oid from kept)
      and not exists (select from extension_member e where e.classid = 'pg_namespace'::regclass and e.objid = n.oid)
  union all
  select format('alter %s %s owner to %I',
      case c.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view'
        when 'f' then 'foreign table' when 'c' then 'type' else 'table' end,
      c.oid::regclass, $1)
    from pg_class c
    where c.relnamespace in (select oid from own_schema) and c.relowner not in (select oid from kept)
      and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S', 'c')
      and not exists (select from extension_member e where e.classid = 'pg_class'::regclass and e.objid = c.oid)
      and not (c.relkind = 'S' and exists (
        select from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a', 'i')))
  union all
  select format('alter routine %s owner to %I', p.oid::regprocedure, $1)
    from pg_proc p
    where p.pronamespace in (select oid from own_schema) and p.proowner not in (select oid from kept)
      and not exists (select from extension_member e where e.classid = 'pg_proc'::regclass and e.objid = p.oid)
  union all
  select format('alter type %s owner to %I', t.oid::regtype, $1)
    from pg_type t
    where t.typnamespace in (select oid from own_schema) and t.typowner not in (select oid from kept)
      and t.typtype in ('e', 'd', 'r')
      and not exists (select from extension_member e where e.classid = 'pg_type'::regclass and e.objid = t.oid)`;

/**
 * The SCRAM-SHA-256 verifier PostgreSQL would store for `password` (RFC 5802/7677, in the format
 * PostgreSQL's own client tools send). Sent instead of the password, which so never appears in
 * a statement the server might log.
 */
function scramVerifier(password: string): string {
  const iterations = 4096;
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const storedKey = createHash('sha256').update(createHmac('sha256', salted).update('Client Key').digest()).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/** Runs `work` on a connection of its own, closed afterwards whatever happens. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  // Connecting is bounded: a cluster that is stopped (SIGSTOP) or hung still accepts the TCP
  // connection, and would hold a server's start or a CLI command for ever.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
