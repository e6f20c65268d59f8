import type { AuditActor } from '@shortlinks/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { ACTION_GROUPS, isAuditAction } from './audit-actions.ts';
import { type AuditView, isFiltered } from './audit-filters.ts';

/**
 * The log's filters: an actor (typed, or picked from those seen so far), a resource id, and an
 * action (grouped by the kind of resource). The ids apply with Enter or Apply, the action at once.
 */
export function AuditFilters({
  view,
  actors,
  onFilter,
}: {
  view: AuditView;
  /** Actors of the entries seen on this page so far, offered as the actor field's suggestions. */
  actors: AuditActor[];
  onFilter: (change: Partial<AuditView>) => void;
}) {
  const [actorId, setActorId] = useState(view.actorId);
  const [resourceId, setResourceId] = useState(view.resourceId);
  // The address changed (Back, a click on a name, Clear): the fields show what it asks.
  useEffect(() => setActorId(view.actorId), [view.actorId]);
  useEffect(() => setResourceId(view.resourceId), [view.resourceId]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    onFilter({ actorId: actorId.trim(), resourceId: resourceId.trim() });
  };
  return (
    <form className="toolbar audit-filters" aria-label="Filter the audit log" onSubmit={apply}>
      <label className="audit-filter">
        <span>Actor</span>
        <input
          className="input"
          name="actor_id"
          list="audit-actors"
          placeholder="usr_… or key_…"
          maxLength={100}
          value={actorId}
          onChange={(event) => setActorId(event.target.value)}
        />
        <datalist id="audit-actors">
          {actors.map((actor) => (
            <option key={actor.id} value={actor.id}>
              {actor.name} ({actor.type})
            </option>
          ))}
        </datalist>
      </label>
      <label className="audit-filter">
        <span>Resource id</span>
        <input
          className="input"
          name="resource_id"
          placeholder="lnk_…"
          maxLength={100}
          value={resourceId}
          onChange={(event) => setResourceId(event.target.value)}
        />
      </label>
      <label className="audit-filter">
        <span>Action</span>
        <select
          className="input"
          name="action"
          value={view.action}
          onChange={(event) => onFilter({ action: isAuditAction(event.target.value) ? event.target.value : '' })}
        >
          <option value="">All actions</option>
          {ACTION_GROUPS.map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.actions.map(({ action, label }) => (
                <option key={action} value={action}>
                  {label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <div className="row audit-filter-actions">
        <button type="submit" className="button small">
          Apply
        </button>
        {isFiltered(view) ? (
          <button type="button" className="button small" onClick={() => onFilter({ actorId: '', resourceId: '', action: '' })}>
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}
