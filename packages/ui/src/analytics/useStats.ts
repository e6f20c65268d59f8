import { type LinkStats, ShortlinksError, type StatsQuery } from '@shortlinks/client';
import { useEffect, useState } from 'react';
import { formErrorOf } from '../links/field-errors.ts';
import type { StatsWindow } from './range.ts';

/** Reads the statistics of one link, tag or the account for a query. */
export type StatsLoader<T extends LinkStats> = (query: StatsQuery) => Promise<T>;

export interface StatsState<T> {
  /** The latest answer; kept while the next range loads, so the view does not jump. */
  stats?: T;
  loading: boolean;
  error?: string;
  /** The reader's zone the server did not know; the answer is in UTC instead. */
  unknownZone?: string;
  retry(): void;
}

/** An API error as the statistics views say it. */
export function statsErrorOf(error: unknown): string {
  if (error instanceof ShortlinksError) {
    if (error.code === 'LINK_NOT_FOUND') return 'This link no longer exists (it was deleted).';
    if (error.code === 'TAG_NOT_FOUND') return 'This tag no longer exists (it was deleted).';
  }
  return formErrorOf(error).message;
}

/**
 * The statistics for `window`, fetched again whenever it (or `load`) changes. A zone the server
 * does not know (a browser newer than the server's time zone data) is answered in UTC rather
 * than not at all; the view says so.
 */
export function useStats<T extends LinkStats>(load: StatsLoader<T>, window: StatsWindow): StatsState<T> {
  const [state, setState] = useState<Omit<StatsState<T>, 'retry'>>({ loading: true });
  const [attempt, setAttempt] = useState(0);
  const { start, end, interval, tz } = window;

  useEffect(() => {
    // `attempt` is read so that Try again fetches anew.
    void attempt;
    let current = true;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    const query = { start, end, interval, tz };
    const fetchStats = async (): Promise<{ stats: T; unknownZone?: string }> => {
      try {
        return { stats: await load(query) };
      } catch (error) {
        if (error instanceof ShortlinksError && error.field === 'tz' && tz !== 'UTC') {
          return { stats: await load({ ...query, tz: 'UTC' }), unknownZone: tz };
        }
        throw error;
      }
    };
    fetchStats().then(
      ({ stats, unknownZone }) => {
        if (current) setState({ stats, loading: false, ...(unknownZone ? { unknownZone } : {}) });
      },
      (error) => {
        if (current) setState({ loading: false, error: statsErrorOf(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [load, start, end, interval, tz, attempt]);

  return { ...state, retry: () => setAttempt((count) => count + 1) };
}
