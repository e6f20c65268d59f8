import { exactTime, relativeTime } from './relative-time.ts';

/** When an entry was committed: how long ago, and the exact instant on hover (and for screen readers' `datetime`). */
export function EntryTime({ at, now = Date.now }: { at: number; now?: () => number }) {
  const exact = exactTime(at);
  return (
    <time dateTime={new Date(at).toISOString()} title={exact} data-exact={exact}>
      {relativeTime(at, now())}
    </time>
  );
}
