import type { Domain } from '@shortlinks/client';

/** A domain's status in a word for its badge (docs/domains.md, "Verification and ownership"). */
export const STATUS_LABELS: Record<Domain['status'], string> = {
  pending: 'Not verified',
  verified: 'Verified',
  record_missing: 'Record missing',
  stopped: 'Stopped',
};

/** The badge's tone: serving and well, serving but in its grace days, or not serving. */
export function statusTone(status: Domain['status']): 'ok' | 'warning' | 'error' | 'muted' {
  if (status === 'verified') return 'ok';
  if (status === 'record_missing') return 'warning';
  if (status === 'stopped') return 'error';
  return 'muted';
}

/** The text field's value for a redirect: '' for none; and back: '' is null (no redirect). */
export const redirectInput = (url: string | null): string => url ?? '';
export const redirectValue = (input: string): string | null => (input.trim() === '' ? null : input.trim());
