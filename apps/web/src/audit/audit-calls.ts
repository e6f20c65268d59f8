import type { ShortlinksClient } from '@shortlinks/client';
import type { AuditLogPage, ListAuditLogQuery, Me } from '@shortlinks/contract';

/** One page of the workspace's audit log (`audit.list`, GET /api/v1/audit-log), newest first. */
export type ReadAuditLog = (query: ListAuditLogQuery) => Promise<AuditLogPage>;

/**
 * The audit log as the dashboard's caller reads it, through the SDK: a person with the session
 * cookie (an admin or the owner), or the key the dashboard is signed in with (it needs `audit.read`).
 */
export function readAuditLog(client: ShortlinksClient): ReadAuditLog {
  return (query) => client.audit.list(query);
}

/**
 * Whether the dashboard offers the audit log (its navigation entry, a link's history): to admins
 * and owners, and to a key (a key made by the CLI acts as owner; one without `audit.read` is
 * refused by the server and the page says so). Members and viewers are refused by the server.
 */
export function offersAuditLog(me: Me | undefined): boolean {
  return me === undefined || me.workspace.role === 'owner' || me.workspace.role === 'admin';
}

/** Whether a failed read was refused for who the caller is (403): a member, a viewer, a key without `audit.read`. */
export function isRefused(caught: unknown): boolean {
  return statusOf(caught) === 403;
}

/** Whether a failed read found no audit log at all (404: a server without `audit.list`). */
export function isMissing(caught: unknown): boolean {
  return statusOf(caught) === 404;
}

/** A failed read in a sentence. */
export function failureText(caught: unknown): string {
  return caught instanceof Error && caught.message ? caught.message : 'The audit log could not be read. Try again.';
}

/** The HTTP status of a failed call: the SDK's ShortlinksError and the dashboard's CallFailed both carry it. */
function statusOf(caught: unknown): unknown {
  return typeof caught === 'object' && caught !== null ? (caught as { status?: unknown }).status : undefined;
}
