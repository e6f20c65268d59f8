/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Confirmation } from '../Confirmation.tsx';
import { countOf } from '../counts.ts';
import { Field, TextField } from '../Field.tsx';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { TagsField } from '../tags/TagsField.tsx';
import { DestinationField } from './DestinationField.tsx';
import { ExpiryFields } from './ExpiryFields.tsx';
import { type FormError, formErrorOf, type LinkFormField } from './field-errors.ts';
import { shortUrlText } from './link-dates.ts';
import { draftOf, errorAfterChange, type LinkDraft, newSlugOf, slugChangeProblem } from './link-draft.ts';
import { SmartLinkFields } from './SmartLinkFields.tsx';
import { type SaveResult, saveDraft } from './save-draft.ts';
import { SLUG_RULE } from './slug-rule.ts';
import { UtmFields } from './UtmFields.tsx';

const isFormError = (value: unknown): value is FormError =>
  typeof value === 'object' && value !== null && 'field' in value && 'message' in value && !(value instanceof Error);

const SAVED: Record<SaveResult['outcome'], (link: Link) => string> = {
  unchanged: () => 'Nothing changed',
  updated: () => 'Saved',
  moved: (link) => `Saved: the link is now ${shortUrlText(link.short_url)}`,
};

/**
 * The link editor (the extension's popup and manage page, the web dashboard): destination, title,
 * slug, tags, UTM, expiry with fallback, comments. The destination is checked by the server as on
 * creation (PATCH /links/{id} sends it with the UTM values), and a refusal is shown at the field. The slug of a link just created may still be chosen; on any
 * other link it is fixed, and **Change…** moves the link to a new slug after a confirmation that
 * says what is lost. Save stays in view (a sticky footer) and says what it did; after a failed
 * save the focus goes to the first field in error, with its message in view.
 */
export function LinkForm({
  link,
  fresh,
  tags,
  onSaved,
  onCancel,
}: {
  link: Link;
  /** Created a moment ago (by the extension's popup): its slug may still be chosen without moving anything. */
  fresh: boolean;
  tags: TagSummary[];
  /** The link as stored now (a moved link has a new id), and what the form says about the save. */
  onSaved: (link: Link, said: string) => void;
  onCancel?: () => void;
}) {
  const host = useShortlinks();
  const [draft, setDraft] = useState<LinkDraft>(() => draftOf(link));
  const [error, setError] = useState<FormError>();
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<string>();
  // On an existing link the slug box is read-only until the person asks to move the link.
  const [moving, setMoving] = useState(false);
  const [confirmingMove, setConfirmingMove] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const slugInput = useRef<HTMLInputElement>(null);
  const errorAt = (field: LinkFormField) => (error?.field === field ? error.message : undefined);
  const change = (patch: Partial<LinkDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setError((current) => errorAfterChange(current, patch));
    setStatus(undefined);
  };
  const newSlug = newSlugOf(link, draft);
  const movesTo = newSlug === undefined ? undefined : `${link.short_url.slice(0, -link.slug.length)}${newSlug}`;

  useEffect(() => {
    if (!error) return;
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-error]');
    target?.closest('.field, .banner')?.scrollIntoView?.({ block: 'center' });
    target?.focus({ preventScroll: true });
  }, [error]);
  useEffect(() => {
    if (moving) slugInput.current?.focus();
  }, [moving]);

  const save = async () => {
    setSaving(true);
    setError(undefined);
    setStatus(undefined);
    try {
      const result = await saveDraft(host.client, link, draft, fresh || moving, host);
      setDraft(draftOf(result.link));
      setMoving(false);
      const said = `${SAVED[result.outcome](result.link)}${result.notice ? `. ${result.notice}` : ''}`;
      setStatus(said);
      onSaved(result.link, said);
    } catch (caught) {
      setError(isFormError(caught) ? caught : formErrorOf(caught, host.messages));
    } finally {
      setSaving(false);
      setConfirmingMove(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!moving || !movesTo) {
      void save();
      return;
    }
    // A slug the server would refuse is said at once, not after the question.
    const problem = slugChangeProblem(link, draft);
    setError(problem);
    if (!problem) setConfirmingMove(true);
  };
  const stopMoving = () => {
    setMoving(false);
    setConfirmingMove(false);
    change({ slug: link.slug });
    if (errorAt('slug')) setError(undefined);
  };

  const formError = error?.field === 'form' ? error.message : undefined;
  return (
    <form onSubmit={submit} noValidate aria-label="Edit link" ref={form} className="link-form">
      {formError ? (
        <div className="banner error" role="alert" tabIndex={-1} data-form-error>
          {formError}
        </div>
      ) : null}
      <DestinationField value={draft.destination} error={errorAt('destination_url')} onChange={(destination) => change({ destination })} />
      <TextField label="Title" error={errorAt('title')} name="title" value={draft.title} onValueChange={(title) => change({ title })} />
      <Field label="Slug" error={errorAt('slug')} hint={slugHint(link, moving)}>
        {(props) => (
          <div className="row slug-row">
            <input
              {...props}
              ref={slugInput}
              name="slug"
              value={draft.slug}
              readOnly={!fresh && !moving}
              onChange={(e) => change({ slug: e.target.value })}
            />
            {fresh ? null : moving ? (
              <button type="button" className="button small" onClick={stopMoving}>
                Keep it
              </button>
            ) : (
              <button type="button" className="button small" onClick={() => setMoving(true)}>
                Change…
              </button>
            )}
          </div>
        )}
      </Field>
      <TagsField available={tags} selected={draft.tags} onChange={(names) => change({ tags: names })} error={errorAt('tags')} />
      <UtmFields utm={draft.utm} error={errorAt('utm')} onChange={(utm) => change({ utm })} />
      <ExpiryFields
        expiresAt={draft.expiresAt}
        expirationUrl={draft.expirationUrl}
        errors={{ expiresAt: errorAt('expires_at'), expirationUrl: errorAt('expiration_url') }}
        onChange={change}
      />
      <SmartLinkFields
        smart={draft.smart}
        passwordProtected={link.password_protected === true}
        errors={{ password: errorAt('password'), max_clicks: errorAt('max_clicks'), rules: errorAt('rules'), preview: errorAt('preview') }}
        onChange={(smart) => change({ smart })}
      />
      <Field label="Comments" error={errorAt('comments')}>
        {(props) => <textarea {...props} name="comments" value={draft.comments} onChange={(e) => change({ comments: e.target.value })} />}
      </Field>
      <div className="form-actions">
        {confirmingMove && movesTo ? (
          <Confirmation
            confirmLabel="Move link"
            cancelLabel="Not now"
            busy={saving}
            onConfirm={save}
            onCancel={() => setConfirmingMove(false)}
          >
            Move this link to <strong>{shortUrlText(movesTo)}</strong>? <strong>{shortUrlText(link.short_url)}</strong> stops working at
            once
            {link.click_count > 0
              ? `; its ${countOf(link.click_count, 'click')} stay in the account’s overview, not in the new link’s statistics`
              : ''}
            . Title, tags, UTM, expiry and comments move with it.
          </Confirmation>
        ) : (
          <>
            <span className="form-status" role="status">
              {status}
            </span>
            {onCancel ? (
              <button type="button" className="button" onClick={onCancel}>
                Cancel
              </button>
            ) : null}
            <button type="submit" className="button primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
          </>
        )}
      </div>
    </form>
  );
}

function slugHint(link: Link, moving: boolean): string {
  return moving ? `The new slug. Saving moves the link: ${shortUrlText(link.short_url)} stops working.` : SLUG_RULE;
}
