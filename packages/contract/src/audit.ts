import { z } from 'zod';
import { PAGE_FIELDS } from './paging.ts';
import { CONTROL_CHARACTER, LONE_SURROGATE } from './text-rules.ts';

/**
 * The audit log (docs/accounts.md, "The audit log"): one entry per committed change to a
 * workspace's links, tags, keys, members, invitations, domains and webhooks, written in the
 * change's own transaction. The action names the resource and what happened to it.
 */
export const AUDIT_ACTIONS = [
  'link.created',
  'link.updated',
  'link.deleted',
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'key.created',
  'key.revoked',
  'member.added',
  'member.updated',
  'member.removed',
  'invitation.created',
  'invitation.accepted',
  'invitation.revoked',
  'domain.created',
  'domain.updated',
  'domain.verified',
  'domain.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'workspace.updated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The kinds of thing an entry is about: the part of its action before the dot. */
export const AUDIT_RESOURCE_TYPES = ['link', 'tag', 'key', 'member', 'invitation', 'domain', 'webhook', 'workspace'] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/**
 * Who made the change: a signed-in person (`user`, their id and name or email), an API key (`key`,
 * its id and name), or the server itself (`system`: the operator's command line, or the server's
 * own work such as a domain's scheduled verification).
 */
export const AUDIT_ACTOR_TYPES = ['user', 'key', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export const AuditActorSchema = z
  .object({
    type: z.enum(AUDIT_ACTOR_TYPES),
    id: z.string().meta({ description: 'A user id (`usr_…`), a key id (`key_…`), or `system`.' }),
    name: z.string().meta({ description: "The person's name (or email), the key's name, or what the server did it as." }),
  })
  .meta({ id: 'AuditActor' });
export type AuditActor = z.infer<typeof AuditActorSchema>;

/** One field's value before and after the change: null before a creation and after a deletion. */
export const AuditFieldChangeSchema = z.object({ before: z.json(), after: z.json() }).meta({ id: 'AuditFieldChange' });

export const AuditEntrySchema = z
  .object({
    id: z.string().meta({ description: 'Starts with `aud_`.' }),
    action: z.enum(AUDIT_ACTIONS),
    actor: AuditActorSchema,
    resource: z
      .object({ type: z.enum(AUDIT_RESOURCE_TYPES), id: z.string() })
      .meta({ description: 'What changed: its kind and its id (`lnk_…`, `tag_…`, `key_…`, `usr_…`, `inv_…`, `dom_…`, `wh_…`).' }),
    changes: z.record(z.string(), AuditFieldChangeSchema).meta({
      description:
        'Only the fields that changed, each with its value before and after, as the API shows them. ' +
        'Secrets (keys, passwords, webhook secrets) never appear.',
    }),
    ip: z.string().nullable().meta({ description: 'The address the request came from; null for the server’s own work.' }),
    created_at: z.number().meta({ description: 'When the change was committed (Unix epoch ms).' }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const idFilter = (name: string, example: string) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(100, `${name} must be at most 100 characters`)
    // No id holds them: refused as the other filters refuse them, rather than found nowhere.
    .refine((value) => !CONTROL_CHARACTER.test(value), `${name} must not contain control characters`)
    .refine((value) => !LONE_SURROGATE.test(value), `${name} must not contain half of a surrogate pair`)
    .meta({ example })
    .optional();

export const ListAuditLogQuerySchema = z.strictObject({
  ...PAGE_FIELDS,
  actor_id: idFilter('actor_id', 'usr_4hG7Qx2LpZ0aB3cD'),
  resource_id: idFilter('resource_id', 'lnk_4hG7Qx2LpZ0aB3cD'),
  action: z
    .enum(AUDIT_ACTIONS, { error: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
    .optional()
    .meta({ description: 'Entries of this action only, such as `link.deleted`.' }),
});
export type ListAuditLogQuery = z.infer<typeof ListAuditLogQuerySchema>;

export const AuditLogPageSchema = z
  .object({
    entries: z.array(AuditEntrySchema),
    page: z.number(),
    per_page: z.number(),
    total: z.number(),
  })
  .meta({ id: 'AuditLogPage' });
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;
