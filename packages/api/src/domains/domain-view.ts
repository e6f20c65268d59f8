import { type Domain, type DomainStatus, LIMITS } from '@shortlinks/contract';
import { verificationRecordName, verificationRecordValue } from './domain-name.ts';

/** A domain row as the service reads it. */
export interface DomainRow {
  id: string;
  account_id: string;
  name: string;
  verification_token: string;
  verified_at: Date | null;
  last_checked_at: Date | null;
  last_check_error: string | null;
  record_missing_since: Date | null;
  root_redirect_url: string | null;
  not_found_url: string | null;
  is_default: boolean;
  created_at: Date;
}

export const DOMAIN_COLUMNS = [
  'id',
  'account_id',
  'name',
  'verification_token',
  'verified_at',
  'last_checked_at',
  'last_check_error',
  'record_missing_since',
  'root_redirect_url',
  'not_found_url',
  'is_default',
  'created_at',
] as const;

export const GRACE_MS = LIMITS.domainRecordGraceDays * 86_400_000;

/** Where the domain stands, and why when it is not simply serving (docs/domains.md). */
export function statusOf(row: DomainRow): { status: DomainStatus; reason: string | null } {
  const record = verificationRecordName(row.name);
  const since = row.record_missing_since;
  if (row.verified_at !== null && since === null) return { status: 'verified', reason: null };
  if (row.verified_at !== null && since !== null) {
    const stops = new Date(since.getTime() + GRACE_MS).toISOString();
    return {
      status: 'record_missing',
      reason: `The TXT record ${record} has not been found since ${since.toISOString()}; the domain stops serving at ${stops} unless it is found again`,
    };
  }
  if (since !== null) {
    return {
      status: 'stopped',
      reason: `Stopped serving: the TXT record ${record} was not found for ${LIMITS.domainRecordGraceDays} days (since ${since.toISOString()}); set it again and verify`,
    };
  }
  return { status: 'pending', reason: `Set the TXT record ${record} to the verification value, then verify` };
}

export function toDomain(row: DomainRow): Domain {
  const { status, reason } = statusOf(row);
  return {
    id: row.id,
    name: row.name,
    verified: row.verified_at !== null,
    status,
    status_reason: reason,
    verification: {
      type: 'TXT',
      name: verificationRecordName(row.name),
      value: verificationRecordValue(row.verification_token),
      ...(row.last_check_error === null ? {} : { error: row.last_check_error }),
    },
    root_redirect_url: row.root_redirect_url,
    not_found_url: row.not_found_url,
    is_default: row.is_default,
    verified_at: row.verified_at?.getTime() ?? null,
    last_checked_at: row.last_checked_at?.getTime() ?? null,
    record_missing_since: row.record_missing_since?.getTime() ?? null,
    created_at: row.created_at.getTime(),
  };
}
