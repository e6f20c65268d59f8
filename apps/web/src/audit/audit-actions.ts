import type { AuditAction, AuditResourceType } from '@shortlinks/contract';

/**
 * Every action of the audit log in words. Written here, not imported, because importing the
 * contract's values would bundle zod into the dashboard; `Record<AuditAction, …>` keeps this table
 * and the contract's AUDIT_ACTIONS the same (a missing or unknown action is a compile error).
 */
const ACTION_LABELS: Record<AuditAction, string> = {
  'link.created': 'Link created',
  'link.updated': 'Link edited',
  'link.deleted': 'Link deleted',
  'tag.created': 'Tag created',
  'tag.updated': 'Tag edited',
  'tag.deleted': 'Tag deleted',
  'key.created': 'API key made',
  'key.revoked': 'API key revoked',
  'member.added': 'Member added',
  'member.updated': 'Member’s role changed',
  'member.removed': 'Member removed',
  'invitation.created': 'Invitation sent',
  'invitation.accepted': 'Invitation accepted',
  'invitation.revoked': 'Invitation revoked',
  'domain.created': 'Domain added',
  'domain.updated': 'Domain edited',
  'domain.verified': 'Domain verified',
  'domain.deleted': 'Domain deleted',
  'webhook.created': 'Webhook created',
  'webhook.updated': 'Webhook edited',
  'webhook.deleted': 'Webhook deleted',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'workspace.updated': 'Workspace edited',
};

/** The kinds of resource as a heading of the action filter. */
const RESOURCE_LABELS: Record<AuditResourceType, string> = {
  link: 'Links',
  tag: 'Tags',
  key: 'API keys',
  member: 'Members',
  invitation: 'Invitations',
  domain: 'Domains',
  webhook: 'Webhooks',
  workspace: 'Workspace',
};

/** The action's words; an action newer than this dashboard shows as the server names it. */
export function actionLabel(action: string): string {
  return Object.hasOwn(ACTION_LABELS, action) ? ACTION_LABELS[action as AuditAction] : action;
}

/** Whether `value` names an action (an address may hold anything). */
export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(ACTION_LABELS, value);
}

export interface ActionGroup {
  label: string;
  actions: { action: AuditAction; label: string }[];
}

/** The actions grouped by the kind of resource they change, in the contract's order: the filter's options. */
export const ACTION_GROUPS: ActionGroup[] = (Object.keys(RESOURCE_LABELS) as AuditResourceType[]).map((type) => ({
  label: RESOURCE_LABELS[type],
  actions: (Object.keys(ACTION_LABELS) as AuditAction[])
    .filter((action) => action.startsWith(`${type}.`))
    .map((action) => ({ action, label: ACTION_LABELS[action] })),
}));

/**
 * What an action did to its resource, which decides how its changes read: a creation shows the
 * values set, a removal what was removed, anything else each field before → after.
 */
export function actionEffect(action: string): 'created' | 'removed' | 'changed' {
  const verb = action.slice(action.indexOf('.') + 1);
  if (verb === 'created' || verb === 'added') return 'created';
  if (verb === 'deleted' || verb === 'removed' || verb === 'revoked') return 'removed';
  return 'changed';
}
