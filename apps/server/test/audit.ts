import type { TestServer } from './harness.ts';

/** An audit entry as the table holds it, in the API's shape (tests read the table to see what a refused call left). */
export interface StoredEntry {
  id: string;
  action: string;
  actor: { type: string; id: string; name: string };
  resource: { type: string; id: string };
  changes: Record<string, { before: unknown; after: unknown }>;
  ip: string | null;
  created_at: number;
}

/** Every audit entry of the account, newest first, straight from the table. */
export async function storedEntries(server: TestServer, accountId: string): Promise<StoredEntry[]> {
  const rows = (await server.orm.em
    .fork()
    .getConnection()
    .execute('select * from audit_entry where account_id = ? order by created_at desc, id desc', [accountId])) as {
    id: string;
    action: string;
    actor_type: string;
    actor_id: string;
    actor_name: string;
    resource_type: string;
    resource_id: string;
    changes: Record<string, { before: unknown; after: unknown }>;
    ip: string | null;
    created_at: Date;
  }[];
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    resource: { type: row.resource_type, id: row.resource_id },
    changes: row.changes,
    ip: row.ip,
    created_at: new Date(row.created_at).getTime(),
  }));
}
