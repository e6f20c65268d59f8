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
  const fields = Object.entries(entry.changes);
  if (fields.length === 0) return <span className="muted">No field changed</span>;
  const effect = actionEffect(entry.action);
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
