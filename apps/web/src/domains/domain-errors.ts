import { ShortlinksError } from '@shortlinks/client';
import { humanise } from '@shortlinks/ui/errors';

/** The inputs of the domains page an error is shown next to. */
export type DomainFormField = 'name' | 'root_redirect_url' | 'not_found_url' | 'form';

export interface DomainFormError {
  field: DomainFormField;
  message: string;
}

const LABELS: [RegExp, string][] = [
  [/^root_redirect_url\b/, 'The root redirect'],
  [/^not_found_url\b/, 'The not-found redirect'],
  [/^name\b/, 'The name'],
  [/^is_default\b/, 'The default'],
];

/** A refusal of a domains call, placed at its field in words a person reads (docs/domains.md). */
export function domainErrorOf(error: unknown): DomainFormError {
  if (!(error instanceof ShortlinksError)) return { field: 'form', message: 'Something went wrong. Please try again.' };
  let message = error.message;
  for (const [pattern, label] of LABELS) message = message.replace(pattern, label);
  message = humanise(message);
  switch (error.code) {
    case 'DOMAIN_HAS_LINKS':
      return { field: 'form', message: `${message} Until then the domain stays.` };
    case 'DOMAIN_LIMIT_REACHED':
    case 'DOMAIN_TAKEN':
      return { field: 'name', message };
    case 'FORBIDDEN':
      return { field: 'form', message: 'Only admins and owners manage domains.' };
    case 'NETWORK_ERROR':
      return { field: 'form', message: 'The server cannot be reached. Check the connection and try again.' };
    default: {
      const field = error.field === 'name' || error.field === 'root_redirect_url' || error.field === 'not_found_url' ? error.field : 'form';
      return { field, message };
    }
  }
}
