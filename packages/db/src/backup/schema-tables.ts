import type pg from 'pg';
import type { BackupTable } from './backup-format.ts';

/**
 * The tables of the current schema (the application's and MikroORM's `mikro_orm_migrations`),
 * each after the tables its foreign keys point to, so that loading them in this order satisfies
 * every key as it goes. Ties are broken by name, so two backups of one schema list the same order.
 */
export async function schemaTables(client: pg.ClientBase): Promise<BackupTable[]> {
  const tables = await client.query<{ name: string; columns: string[] }>(`
    select c.relname as name,
           array_agg(a.attname::text order by a.attnum) filter (where a.attnum > 0) as columns
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where n.nspname = current_schema() and c.relkind = 'r'
     group by c.relname
     order by c.relname`);
  const references = await client.query<{ child: string; parent: string }>(`
    select child.relname as child, parent.relname as parent
      from pg_constraint k
      join pg_class child on child.oid = k.conrelid
      join pg_class parent on parent.oid = k.confrelid
      join pg_namespace n on n.oid = child.relnamespace
     where k.contype = 'f' and n.nspname = current_schema() and child.oid <> parent.oid`);

  const parentsOf = new Map(tables.rows.map((table) => [table.name, new Set<string>()]));
  for (const { child, parent } of references.rows) parentsOf.get(child)?.add(parent);
  const ordered: BackupTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.rows.length) {
    const next = tables.rows.find((table) => !placed.has(table.name) && [...(parentsOf.get(table.name) ?? [])].every((p) => placed.has(p)));
    // Tables that refer to each other in a circle: none in our schema; load them in name order.
    const table = next ?? tables.rows.find((candidate) => !placed.has(candidate.name));
    if (!table) break;
    placed.add(table.name);
    ordered.push({ name: table.name, columns: table.columns ?? [] });
  }
  return ordered;
}

/** Identity and serial columns of the current schema, with the sequence each draws from. */
export async function schemaSequences(client: pg.ClientBase): Promise<{ table: string; column: string; sequence: string }[]> {
  const result = await client.query<{ table: string; column: string; sequence: string }>(`
    select c.relname as table, a.attname as column, pg_get_serial_sequence(format('%I', c.relname), a.attname) as sequence
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where n.nspname = current_schema() and c.relkind = 'r'
       and pg_get_serial_sequence(format('%I', c.relname), a.attname) is not null
     order by 1, 2`);
  return result.rows;
}

/** A table and its columns as COPY names them. */
export function copyTarget(table: BackupTable, quote: (name: string) => string): string {
  return `${quote(table.name)} (${table.columns.map(quote).join(', ')})`;
}
