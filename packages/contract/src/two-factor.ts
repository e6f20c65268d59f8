import { z } from 'zod';

/** Two-factor sign-in (docs/accounts.md, "Two-factor sign-in"): TOTP codes and one-time recovery codes. */

/** A 6-digit code, or a recovery code (`xxxx-xxxx-xxxx-xxxx`); spaces and hyphens are ignored. */
const code = z.string().min(1).max(64);

export const TwoFactorCodeBodySchema = z.strictObject({ code });

export const TwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
  /** The workspace the session works in requires two-factor of everyone. */
  required_here: z.boolean(),
});
export type TwoFactorStatusView = z.infer<typeof TwoFactorStatusSchema>;

/** What the authenticator app is given: the secret to type, or its otpauth URI as a QR code (an SVG data URL). */
export const TwoFactorEnrolmentSchema = z.object({ secret: z.string(), otpauth_uri: z.string(), qr_code: z.string() });
export type TwoFactorEnrolmentView = z.infer<typeof TwoFactorEnrolmentSchema>;

/** Shown once: only their hashes are kept. */
export const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

/** A code from the app, a recovery code, or the password: what turning two-factor off and new recovery codes need. */
export const TwoFactorProofBodySchema = z.strictObject({ code: code.optional(), password: z.string().max(1024).optional() });
export const DisableTwoFactorBodySchema = TwoFactorProofBodySchema;

export const RequireTwoFactorBodySchema = z.strictObject({ required: z.boolean() });
