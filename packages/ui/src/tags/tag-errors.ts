import { ShortlinksError } from '@shortlinks/client';
import { DEFAULT_MESSAGES, type HostMessages } from '../host-messages.ts';
import { formErrorOf, humanise } from '../links/field-errors.ts';

/** A tag manager error in words: the name's problems shown at the name, the rest for the whole row. */
export function tagErrorOf(error: unknown, messages: HostMessages = DEFAULT_MESSAGES): { name?: string; form?: string } {
  if (error instanceof ShortlinksError) {
    if (error.code === 'TAG_NAME_TAKEN') return { name: 'Another tag already has this name (names ignore case).' };
    if (error.code === 'PLAN_LIMIT_REACHED') return { form: 'Your plan allows no more tags. Delete a tag you no longer use first.' };
    if (error.code === 'TAG_NOT_FOUND') return { form: 'This tag no longer exists (it was deleted elsewhere).' };
    if (error.code === 'VALIDATION_ERROR' && error.field === 'name') {
      return { name: humanise(error.message.replace(/^name\b/, 'The name')) };
    }
  }
  return { form: formErrorOf(error, messages).message };
}
