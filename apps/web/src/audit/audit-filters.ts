import type { AuditAction, ListAuditLogQuery } from '@shortlinks/contract';
import { LIMITS } from '@shortlinks/contract/rules';
import { isAuditAction } from './audit-actions.ts';

/** What the audit log page shows: its filters and page, kept in the address so a view can be shared. */
export interface AuditView {
  actorId: string;
  resourceId: string;
  action: AuditAction | '';
  page: number;
  perPage: number;
}

export const DEFAULT_AUDIT_VIEW: AuditView = { actorId: '', resourceId: '', action: '', page: 1, perPage: LIMITS.perPageDefault };

/** The page sizes offered; an address may hold any size the API accepts. */
export const PAGE_SIZES = [20, 50, 100] as const;

/**
 * The address's query for a view: the API's own names (`?actor_id=…&resource_id=…&action=…&page=…&per_page=…`),
 * each only when it is not the default, so the address reads like the API call it makes.
 */
export function auditQueryString(view: Partial<AuditView>): string {
  const shown = { ...DEFAULT_AUDIT_VIEW, ...view };
  const query = new URLSearchParams();
  if (shown.actorId.trim() !== '') query.set('actor_id', shown.actorId.trim());
  if (shown.resourceId.trim() !== '') query.set('resource_id', shown.resourceId.trim());
  if (shown.action !== '') query.set('action', shown.action);
  if (shown.page > 1) query.set('page', String(shown.page));
  if (shown.perPage !== DEFAULT_AUDIT_VIEW.perPage) query.set('per_page', String(shown.perPage));
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** What an address's query asks to see; a part it cannot read is left at its default. */
export function auditViewOf(search: string): AuditView {
  const query = new URLSearchParams(search);
  const action = query.get('action') ?? '';
  return {
    actorId: (query.get('actor_id') ?? '').trim().slice(0, 100),
    resourceId: (query.get('resource_id') ?? '').trim().slice(0, 100),
    action: isAuditAction(action) ? action : '',
    page: wholeIn(query.get('page'), 1, LIMITS.pageMax) ?? 1,
    perPage: wholeIn(query.get('per_page'), 1, LIMITS.perPageMax) ?? DEFAULT_AUDIT_VIEW.perPage,
  };
}

/** The API's query (GET /audit-log) for a view: empty filters left out. */
export function auditLogQuery(view: AuditView): ListAuditLogQuery {
  return {
    page: view.page,
    per_page: view.perPage,
    ...(view.actorId !== '' ? { actor_id: view.actorId } : {}),
    ...(view.resourceId !== '' ? { resource_id: view.resourceId } : {}),
    ...(view.action !== '' ? { action: view.action } : {}),
  };
}

/** Whether any filter narrows the log (the page and its size aside): the empty state says which. */
export function isFiltered(view: AuditView): boolean {
  return view.actorId !== '' || view.resourceId !== '' || view.action !== '';
}

function wholeIn(text: string | null, min: number, max: number): number | undefined {
  if (text === null || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}
