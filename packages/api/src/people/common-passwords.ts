import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The most common passwords, from the list zxcvbn-ts keeps (its `passwords-common` dictionary:
 * about 30,000 passwords seen most often in leaks, ordered by frequency), read once. A password in
 * it, ignoring case, is refused (passwords.ts).
 */
let common: ReadonlySet<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));
  return common.has(password.toLowerCase());
}
