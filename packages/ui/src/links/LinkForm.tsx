/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { type FormEvent, useState } from 'react';
import { Field } from '../Field.tsx';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { TagPicker } from '../tags/TagPicker.tsx';
import { type FormError, formErrorOf, type LinkFormField } from './field-errors.ts';
import { draftOf, type LinkDraft, UTM_KEYS } from './link-draft.ts';
import { saveDraft } from './save-draft.ts';

const isFormError = (value: unknown): value is FormError =>
  typeof value === 'object' && value !== null && 'field' in value && 'message' in value && !(value instanceof Error);

/**
 * The link editor (the extension's popup and manage page): title, slug (only on a link just created),
 * tags, UTM, expiry with fallback, comments. Every error is shown at its field.
 */
export function LinkForm({
  link,
  fresh,
  tags,
  onSaved,
  onCancel,
}: {
  link: Link;
  /** Created a moment ago (by the extension's popup): its slug may still be chosen. */
  fresh: boolean;
  tags: TagSummary[];
  onSaved: (link: Link) => void;
  onCancel?: () => void;
}) {
  const host = useShortlinks();
  const [draft, setDraft] = useState<LinkDraft>(() => draftOf(link));
  const [error, setError] = useState<FormError>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const errorAt = (field: LinkFormField) => (error?.field === field ? error.message : undefined);
  const change = (patch: Partial<LinkDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setSaved(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      const result = await saveDraft(host.client, link, draft, fresh, host);
      setSaved(true);
      onSaved(result);
    } catch (caught) {
      setError(isFormError(caught) ? caught : formErrorOf(caught));
    } finally {
      setSaving(false);
    }
  };

  const hasUtm = UTM_KEYS.some((key) => draft.utm[key] !== '');
  return (
    <form onSubmit={submit} noValidate aria-label="Edit link">
      {error?.field === 'form' || error?.field === 'destination_url' ? (
        <div className="banner error" role="alert">
          {error.message}
        </div>
      ) : null}
      <Field label="Title" error={errorAt('title')}>
        {(props) => <input {...props} name="title" value={draft.title} onChange={(e) => change({ title: e.target.value })} />}
      </Field>
      <Field
        label="Slug"
        error={errorAt('slug')}
        hint={fresh ? 'Letters, digits, - and _. Choose it now: a slug cannot change later.' : 'A slug never changes after creation.'}
      >
        {(props) => (
          <input {...props} name="slug" value={draft.slug} readOnly={!fresh} onChange={(e) => change({ slug: e.target.value })} />
        )}
      </Field>
      <Field label="Tags" error={errorAt('tags')} hint="Pick a tag, or type a new name and press Enter.">
        {(props) => (
          <TagPicker
            available={tags}
            selected={draft.tags}
            onChange={(names) => change({ tags: names })}
            inputId={props.id}
            invalid={props['aria-invalid']}
            describedBy={props['aria-describedby']}
          />
        )}
      </Field>
      <details open={hasUtm || Boolean(errorAt('utm'))}>
        <summary>UTM parameters</summary>
        {errorAt('utm') ? (
          <div className="banner error" role="alert">
            {errorAt('utm')}
          </div>
        ) : null}
        <div className="grid-2">
          {UTM_KEYS.map((key) => (
            <Field key={key} label={`utm_${key}`}>
              {(props) => (
                <input
                  {...props}
                  name={`utm_${key}`}
                  value={draft.utm[key]}
                  onChange={(e) => change({ utm: { ...draft.utm, [key]: e.target.value } })}
                />
              )}
            </Field>
          ))}
        </div>
      </details>
      <details open={draft.expiresAt !== '' || Boolean(errorAt('expires_at') || errorAt('expiration_url'))}>
        <summary>Expiry</summary>
        <div className="grid-2">
          <Field label="Expires at" error={errorAt('expires_at')}>
            {(props) => (
              <input
                {...props}
                type="datetime-local"
                name="expires_at"
                value={draft.expiresAt}
                onChange={(e) => change({ expiresAt: e.target.value })}
              />
            )}
          </Field>
          <Field label="Then redirect to" error={errorAt('expiration_url')}>
            {(props) => (
              <input
                {...props}
                type="url"
                name="expiration_url"
                placeholder="https://…"
                value={draft.expirationUrl}
                onChange={(e) => change({ expirationUrl: e.target.value })}
              />
            )}
          </Field>
        </div>
      </details>
      <Field label="Comments" error={errorAt('comments')}>
        {(props) => <textarea {...props} name="comments" value={draft.comments} onChange={(e) => change({ comments: e.target.value })} />}
      </Field>
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        {saved ? (
          <span className="muted" role="status">
            Saved
          </span>
        ) : null}
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
