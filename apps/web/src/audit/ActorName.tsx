import type { AuditActor } from '@shortlinks/contract';

const KIND_WORDS: Record<AuditActor['type'], string> = { user: 'user', key: 'key', system: 'system' };

/**
 * Who made a change: a badge for what they are (a person, an API key, the server itself) and their
 * name, which filters the log by them when the view offers it (`onPick`).
 */
export function ActorName({ actor, onPick }: { actor: AuditActor; onPick?: ((actor: AuditActor) => void) | undefined }) {
  const badge = <span className={`badge actor-${actor.type}`}>{KIND_WORDS[actor.type]}</span>;
  return (
    <span className="audit-actor">
      {badge}{' '}
      {onPick ? (
        <button
          type="button"
          className="link-button"
          title={`Show only the changes of ${actor.name} (${actor.id})`}
          aria-label={`Only changes by ${actor.name}`}
          onClick={() => onPick(actor)}
        >
          {actor.name}
        </button>
      ) : (
        <span title={actor.id}>{actor.name}</span>
      )}
    </span>
  );
}
