/**
 * What an audit entry's `changes` holds (docs/accounts.md, "The audit log"): each field whose
 * value differs between the object before and after the change, as the API shows them, with its
 * value on both sides. A creation has no before (every field was null), a deletion no after. A
 * field absent from an object is null there, so a field set at creation to nothing (null, absent)
 * is not listed.
 */
export type FieldChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * Fields an entry never holds, one list for every resource:
 * - secrets, which must never be written anywhere but where they belong (an API key, its hash, a
 *   password or its hash, a session's or invitation's token, a webhook's signing secrets, a
 *   two-factor secret and its recovery codes);
 * - noise, which every write or visit moves and which says nothing of what someone changed
 *   (`updated_at`, a link's `click_count`, a key's `last_used_at`, a tag's `link_count`, a
 *   webhook's failure count), and the resource's `id`, which the entry names as its resource.
 */
export const UNRECORDED_FIELDS: ReadonlySet<string> = new Set([
  // Secrets.
  'key',
  'secret',
  'secret_hash',
  'previous_secret',
  'password',
  'password_hash',
  'token',
  'token_hash',
  'csrf_token',
  'totp_secret',
  'recovery_codes',
  // Noise.
  'id',
  'updated_at',
  'click_count',
  'last_used_at',
  'last_seen_at',
  'link_count',
  'consecutive_failures',
]);

/** The fields that differ between `before` and `after` (either may be absent: a creation, a deletion). */
export function fieldChanges(before: unknown, after: unknown): FieldChanges {
  const was = asFields(before);
  const is = asFields(after);
  const changes: FieldChanges = {};
  for (const field of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (UNRECORDED_FIELDS.has(field)) continue;
    const from = was[field] ?? null;
    const to = is[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { before: from, after: to };
  }
  return changes;
}

function asFields(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
