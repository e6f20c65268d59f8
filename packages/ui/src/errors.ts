// API errors in words a person understands, placed where a form shows them. A subpath of its own
// so code without React (the extension's service worker) can import it alone.
export { DEFAULT_MESSAGES, type HostMessages } from './host-messages.ts';
export { type FormError, formErrorOf, humanise, type LinkFormField } from './links/field-errors.ts';
export { tagErrorOf } from './tags/tag-errors.ts';
