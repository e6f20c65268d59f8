/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link, Tag } from '@shortlinks/client';
import { useEffect, useRef, useState } from 'react';
import { Confirmation } from '../Confirmation.tsx';
import { countOf, formatCount } from '../counts.ts';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { sortedByName } from '../tags/tag-names.ts';
import type { BulkAction } from './bulk-plan.ts';
import { type BulkOutcome, type BulkProgress, runBulk } from './bulk-run.ts';
import { formErrorOf } from './field-errors.ts';

type Step = { kind: 'add-tag' | 'remove-tag'; tagId: string } | { kind: 'delete' };

/**
 * The list's bulk bar: tick the page or every link the filter matches, then add a tag, remove one
 * or delete, after a question that says how many. The work goes through the bulk calls, 100 links
 * a call, with its progress and, at the end, what was done and each link it could not be done to.
 */
export function BulkActions({
  tags,
  count,
  total,
  page,
  allMatching,
  onSelectPage,
  onSelectAllMatching,
  onClear,
  gather,
  onFinished,
}: {
  tags: Tag[];
  /** Links chosen. */
  count: number;
  /** Links the filter matches. */
  total: number;
  /** How much of the page shown is chosen. */
  page: 'none' | 'some' | 'all';
  allMatching: boolean;
  onSelectPage: (picked: boolean) => void;
  onSelectAllMatching: () => void;
  onClear: () => void;
  /** The chosen links, with their tags as they are now (listing them when all matching are chosen). */
  gather: (onProgress: (progress: BulkProgress) => void) => Promise<Link[]>;
  onFinished: () => void;
}) {
  const { client, messages } = useShortlinks();
  const [step, setStep] = useState<Step>();
  const [progress, setProgress] = useState<BulkProgress>();
  const [report, setReport] = useState<{ action: BulkAction; outcome: BulkOutcome }>();
  const [error, setError] = useState<string>();
  const pageBox = useRef<HTMLInputElement>(null);
  const reportBox = useRef<HTMLDivElement>(null);
  const running = progress !== undefined;
  const byName = sortedByName(tags);

  useEffect(() => {
    if (pageBox.current) pageBox.current.indeterminate = page === 'some';
  }, [page]);
  useEffect(() => {
    if (report || error) reportBox.current?.focus();
  }, [report, error]);

  const run = async (action: BulkAction) => {
    setStep(undefined);
    setReport(undefined);
    setError(undefined);
    setProgress({ stage: 'gathering', done: 0, total: count });
    try {
      const links = await gather(setProgress);
      const outcome = await runBulk(client, action, links, messages, setProgress);
      setReport({ action, outcome });
    } catch (caught) {
      // Only gathering the matching links can fail as a whole; nothing was changed then.
      setError(`Nothing was changed: ${formErrorOf(caught, messages).message}`);
    } finally {
      setProgress(undefined);
      onFinished();
    }
  };
  const tagOf = (id: string) => tags.find((tag) => tag.id === id);

  return (
    <div className="bulk">
      {total > 0 || count > 0 ? (
        <fieldset className="bulk-bar" aria-label="Bulk actions">
          <label className="check">
            <input
              ref={pageBox}
              type="checkbox"
              checked={page === 'all'}
              disabled={running}
              onChange={(event) => onSelectPage(event.target.checked)}
            />
            Select page
          </label>
          {count > 0 ? (
            <>
              <span className="bulk-count" role="status">
                {allMatching ? `All ${countOf(total, 'link')} matching selected` : `${formatCount(count)} selected`}
              </span>
              {!allMatching && total > count ? (
                <button type="button" className="button small" onClick={onSelectAllMatching} disabled={running}>
                  Select all {countOf(total, 'link')} matching
                </button>
              ) : null}
              <button type="button" className="button small" onClick={onClear} disabled={running}>
                Clear selection
              </button>
              <span className="row bulk-verbs">
                <button
                  type="button"
                  className="button small"
                  disabled={running || tags.length === 0}
                  aria-expanded={step?.kind === 'add-tag'}
                  onClick={() => setStep({ kind: 'add-tag', tagId: byName[0]?.id ?? '' })}
                >
                  Add tag
                </button>
                <button
                  type="button"
                  className="button small"
                  disabled={running || tags.length === 0}
                  aria-expanded={step?.kind === 'remove-tag'}
                  onClick={() => setStep({ kind: 'remove-tag', tagId: byName[0]?.id ?? '' })}
                >
                  Remove tag
                </button>
                <button type="button" className="button small danger" disabled={running} onClick={() => setStep({ kind: 'delete' })}>
                  Delete
                </button>
              </span>
            </>
          ) : null}
        </fieldset>
      ) : null}
      {step?.kind === 'delete' ? (
        <Confirmation
          confirmLabel={`Delete ${countOf(count, 'link')}`}
          onConfirm={() => run({ kind: 'delete' })}
          onCancel={() => setStep(undefined)}
        >
          Delete {countOf(count, 'link')}? {count === 1 ? 'It stops' : 'They stop'} working at once, and this cannot be undone.
        </Confirmation>
      ) : null}
      {step && step.kind !== 'delete' ? (
        <TagQuestion
          step={step}
          count={count}
          tags={byName}
          onChoose={(tagId) => setStep({ ...step, tagId })}
          onConfirm={() => {
            const tag = tagOf(step.tagId);
            if (tag) void run({ kind: step.kind, tag });
          }}
          onCancel={() => setStep(undefined)}
        />
      ) : null}
      {progress ? <ProgressLine progress={progress} /> : null}
      {error ? (
        <div className="banner error" role="alert" tabIndex={-1} ref={reportBox}>
          {error}
        </div>
      ) : null}
      {report ? (
        <div
          className={report.outcome.failures.length > 0 ? 'banner error bulk-report' : 'banner ok bulk-report'}
          role="status"
          tabIndex={-1}
          ref={reportBox}
        >
          <div className="banner-with-action">
            <span>{reportText(report.action, report.outcome)}</span>
            <button type="button" className="button small" onClick={() => setReport(undefined)}>
              Dismiss
            </button>
          </div>
          {report.outcome.failures.length > 0 ? (
            <ul className="bulk-failures">
              {report.outcome.failures.map((failure) => (
                <li key={failure.link.id}>
                  <strong>{failure.link.title}</strong>
                  {failure.link.short_url ? ` (${failure.link.short_url})` : ''}: {failure.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** "Add [Work] to 3 links?" with the tag to choose, and a button that says what it will do. */
function TagQuestion({
  step,
  count,
  tags,
  onChoose,
  onConfirm,
  onCancel,
}: {
  step: { kind: 'add-tag' | 'remove-tag'; tagId: string };
  count: number;
  tags: Tag[];
  onChoose: (tagId: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const adding = step.kind === 'add-tag';
  const choice = useRef<HTMLSelectElement>(null);
  useEffect(() => choice.current?.focus(), []);
  return (
    <fieldset className="confirmation bulk-question" aria-label={adding ? 'Add a tag' : 'Remove a tag'}>
      <p className="confirmation-question">
        {adding ? 'Add ' : 'Remove '}
        <select
          ref={choice}
          className="input"
          aria-label={adding ? 'Tag to add' : 'Tag to remove'}
          value={step.tagId}
          onChange={(event) => onChoose(event.target.value)}
        >
          {tags.map((tag) => (
            <option key={tag.id} value={tag.id}>
              {tag.name}
            </option>
          ))}
        </select>
        {adding ? ' to ' : ' from '}
        {countOf(count, 'link')}?
      </p>
      <div className="row confirmation-actions">
        <button type="button" className="button small primary" onClick={onConfirm}>
          {adding ? 'Add tag' : 'Remove tag'}
        </button>
        <button type="button" className="button small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}

function ProgressLine({ progress }: { progress: BulkProgress }) {
  const text =
    progress.stage === 'gathering'
      ? `Finding the links… ${formatCount(progress.done)} of ${formatCount(progress.total)}`
      : `Working… ${formatCount(progress.done)} of ${countOf(progress.total, 'link')} done`;
  return (
    <div className="bulk-progress" role="status">
      <progress max={Math.max(progress.total, 1)} value={progress.done} aria-label="Bulk action progress" />
      <span>{text}</span>
    </div>
  );
}

/** What the action did, in one sentence: "Deleted 98 links; 2 could not be deleted." */
export function reportText(action: BulkAction, { done, unchanged, failures }: BulkOutcome): string {
  const failed = failures.length;
  const verb = action.kind === 'delete' ? 'deleted' : 'changed';
  const tail = failed > 0 ? `; ${formatCount(failed)} could not be ${verb}:` : '.';
  if (action.kind === 'delete') return `Deleted ${countOf(done, 'link')}${tail}`;
  const name = action.tag.name;
  const lead = action.kind === 'add-tag' ? `Added ${name} to ${countOf(done, 'link')}` : `Removed ${name} from ${countOf(done, 'link')}`;
  const left =
    unchanged === 0
      ? ''
      : action.kind === 'add-tag'
        ? ` (${formatCount(unchanged)} already had it)`
        : ` (${formatCount(unchanged)} did not have it)`;
  return `${lead}${left}${tail}`;
}
