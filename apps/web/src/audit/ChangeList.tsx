import type { AuditEntry } from '@shortlinks/contract';
import { actionEffect } from './audit-actions.ts';
import { ChangedValue } from './ChangedValue.tsx';
import { fieldLabel } from './change-values.ts';

/**
 * What an entry changed, field by field: a creation the values it set, a removal the values it
 * removed, anything else each field's value before → after. Secrets never reach here: the server
 * leaves them out of every entry.
 */
export function ChangeList({ entry }: { entry: AuditEntry }) {
  const effect = actionEffect(entry.action);
  // A creation's empty list or a removal's empty text says nothing of what was set or removed.
  const fields = Object.entries(entry.changes).filter(
    ([, change]) => effect === 'changed' || !isBlank(effect === 'created' ? change.after : change.before),
  );
  if (fields.length === 0) return <span className="muted">No field changed</span>;
  return (
    <dl className="audit-changes">
      {fields.map(([field, change]) => (
        <div key={field} className="audit-change" data-field={field}>
          <dt>{fieldLabel(field)}</dt>
          <dd>
            {effect === 'created' ? (
              <ChangedValue field={field} value={change.after} kind="after" />
            ) : effect === 'removed' ? (
              <ChangedValue field={field} value={change.before} kind="before" />
            ) : (
              <>
                <ChangedValue field={field} value={change.before} kind="before" /> <span aria-hidden="true">→</span>{' '}
                <span className="visually-hidden">changed to</span> <ChangedValue field={field} value={change.after} kind="after" />
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Nothing to show: no value, empty text, an empty list or object. */
function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}
