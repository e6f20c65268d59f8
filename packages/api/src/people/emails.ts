import { validationError } from '../errors.ts';

/** The longest address SMTP carries (RFC 5321's path limit). */
const EMAIL_MAX_LENGTH = 254;

/**
 * An email as it is stored: trimmed, with one `@`, something on both sides and no spaces. Case is
 * kept as typed (the local part may be case-sensitive to its server), and matched ignoring it.
 */
export function checkedEmail(email: string, field = 'email'): string {
  const trimmed = email.trim();
  if (trimmed.length > EMAIL_MAX_LENGTH) throw validationError(field, `The email must be at most ${EMAIL_MAX_LENGTH} characters long`);
  if (!/^[^\s@]+@[^\s@]+$/.test(trimmed)) throw validationError(field, 'Enter an email address such as ada@example.com');
  return trimmed;
}
