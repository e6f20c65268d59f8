import type { AuditActor, AuditEntry } from '@shortlinks/contract';
import { AuditEntryRow } from './AuditEntryRow.tsx';

/**
 * Entries of the audit log, newest first as the server gives them. A link's history leaves out the
 * resource column (it is the link); the log's page lets a click on a name filter by that actor.
 */
export function AuditTable({
  entries,
  label,
  showResource = true,
  onPickActor,
}: {
  entries: AuditEntry[];
  label: string;
  showResource?: boolean;
  onPickActor?: (actor: AuditActor) => void;
}) {
  return (
    <div className="audit-table-wrap">
      <table className="audit-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            {showResource ? <th scope="col">Resource</th> : null}
            <th scope="col">Changes</th>
            <th scope="col">IP</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <AuditEntryRow key={entry.id} entry={entry} showResource={showResource} onPickActor={onPickActor} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
