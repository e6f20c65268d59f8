import { z } from 'zod';
import { RoleSchema } from './people.ts';

/**
 * Invitations to a workspace (docs/accounts.md, "Invitations"): made by admins and owners, by
 * email, with a role no higher than the inviter's; the link works once and for 7 days. The token
 * travels in the link's fragment and in these bodies, never in a query string.
 */

const token = z.string().min(1).max(200);

export const CreateInvitationBodySchema = z.strictObject({ email: z.string().max(254), role: RoleSchema });

/** A pending invitation, as the members page lists it (never its token: that is shown once, at creation). */
export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: RoleSchema,
  /** Who invited, or null for an operator's API key (or a person since deleted). */
  invited_by: z.string().nullable(),
  created_at: z.number(),
  expires_at: z.number(),
});
export type InvitationView = z.infer<typeof InvitationSchema>;

/** A new invitation: its link, to hand over (shown this once), and whether it was mailed too. */
export const CreatedInvitationSchema = z.object({
  invitation: InvitationSchema,
  /** The link that accepts it; the secret is in its fragment. */
  url: z.string(),
  /** `sent`: handed to the SMTP server; `not_configured`: no SMTP_URL; `failed`: see `email_error`. */
  email: z.enum(['sent', 'not_configured', 'failed']),
  /** Why mailing failed, in words (the link still works: hand it over). */
  email_error: z.string().nullable(),
});
export type CreatedInvitation = z.infer<typeof CreatedInvitationSchema>;

export const RevokeInvitationBodySchema = z.strictObject({ id: z.string().min(1).max(64) });

export const InvitationTokenSchema = z.strictObject({ token });

/** What the acceptance page shows before accepting. */
export const InvitationOfferSchema = z.object({
  workspace: z.string(),
  email: z.string(),
  role: RoleSchema,
  invited_by: z.string().nullable(),
  expires_at: z.number(),
  /** Whether a person with this email exists already (they sign in to accept; a new one sets a password). */
  existing_user: z.boolean(),
});
export type InvitationOffer = z.infer<typeof InvitationOfferSchema>;

export const AcceptInvitationBodySchema = z.strictObject({
  token,
  /**
   * A new person's password (under the password rules), or an existing person's current one when
   * they are not signed in. Not needed by a person signed in as the invited email.
   */
  password: z.string().max(1024).optional(),
});
