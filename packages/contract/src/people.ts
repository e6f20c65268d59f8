import { z } from 'zod';

/**
 * The dashboard's people procedures (docs/accounts.md): signing in, sessions, members and the
 * workspace. Password rules (10 to 256 characters, not a common one) are checked by the server,
 * which says which rule failed; here only what bounds a request.
 */

export const ROLE_NAMES = ['owner', 'admin', 'member', 'viewer'] as const;
export const RoleSchema = z.enum(ROLE_NAMES);
export type RoleName = z.infer<typeof RoleSchema>;

/** Long enough for any password the server accepts (256 characters of up to 4 bytes), and no longer. */
const password = z.string().max(1024);
const email = z.string().max(254);
const personId = z.string().min(1).max(64);

export const SignInBodySchema = z.strictObject({ email, password });

export const WorkspaceSchema = z.object({ id: z.string(), name: z.string(), role: RoleSchema });
export type Workspace = z.infer<typeof WorkspaceSchema>;

/** Who is signed in, where, and what the dashboard sends back with every write. */
export const MeSchema = z.object({
  user: z.object({ id: z.string(), email: z.string() }),
  workspace: WorkspaceSchema,
  workspaces: z.array(WorkspaceSchema),
  /** Sent back in `X-CSRF-Token` with every write made with the session cookie (docs/security.md). */
  csrf_token: z.string(),
});
export type Me = z.infer<typeof MeSchema>;

export const SessionSchema = z.object({
  id: z.string(),
  created_at: z.number(),
  last_seen_at: z.number(),
  expires_at: z.number(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;

export const EndSessionBodySchema = z.strictObject({ id: z.string().min(1).max(64) });

export const ChangePasswordBodySchema = z.strictObject({ current_password: password, new_password: password });

export const SwitchWorkspaceBodySchema = z.strictObject({ workspace_id: z.string().min(1).max(64) });

export const PasswordLinkQuerySchema = z.strictObject({ token: z.string().min(1).max(200) });

export const PasswordLinkSchema = z.object({
  purpose: z.enum(['setup', 'password']),
  email: z.string().nullable(),
  workspace: z.string().nullable(),
  expires_at: z.number(),
});

export const UsePasswordLinkBodySchema = z.strictObject({
  token: z.string().min(1).max(200),
  password,
  /** The first owner's email (a `setup` link); ignored for a person who has one. */
  email: email.optional(),
});

export const MemberSchema = z.object({ user_id: z.string(), email: z.string(), role: RoleSchema, joined_at: z.number() });
export type Member = z.infer<typeof MemberSchema>;

export const ChangeRoleBodySchema = z.strictObject({ user_id: personId, role: RoleSchema });
export const RemoveMemberBodySchema = z.strictObject({ user_id: personId });

export const RenameWorkspaceBodySchema = z.strictObject({ name: z.string().max(1000) });
export const DeleteWorkspaceBodySchema = z.strictObject({ confirm_name: z.string().max(1000) });
