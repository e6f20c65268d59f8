import type { AuditActor, AuditEntry } from '@shortlinks/contract';
import { ActorName } from './ActorName.tsx';
import { actionLabel } from './audit-actions.ts';
import { ChangeList } from './ChangeList.tsx';
import { EntryTime } from './EntryTime.tsx';
import { ResourceName } from './ResourceName.tsx';

/** One entry of the log as a table row: when, who, what was done, to what, what changed, from where. */
export function AuditEntryRow({
  entry,
  showResource,
  onPickActor,
}: {
  entry: AuditEntry;
  showResource: boolean;
  onPickActor?: ((actor: AuditActor) => void) | undefined;
}) {
  return (
    <tr data-testid="audit-entry" data-action={entry.action} data-actor={entry.actor.id}>
      <td className="audit-when">
        <EntryTime at={entry.created_at} />
      </td>
      <td data-testid="audit-actor">
        <ActorName actor={entry.actor} onPick={onPickActor} />
      </td>
      <td data-testid="audit-action" title={entry.action}>
        {actionLabel(entry.action)}
      </td>
      {showResource ? (
        <td data-testid="audit-resource">
          <ResourceName resource={entry.resource} />
        </td>
      ) : null}
      <td data-testid="audit-changes">
        <ChangeList entry={entry} />
      </td>
      <td className="audit-ip">{entry.ip ?? <span className="muted">—</span>}</td>
    </tr>
  );
}
