import type { Link, Tag } from '@shortlinks/client';
import {
  DestinationField,
  DomainPicker,
  draftProblem,
  EMPTY_DRAFT,
  ExpiryFields,
  errorAfterChange,
  Field,
  type LinkDraft,
  SLUG_RULE,
  SmartLinkFields,
  TagsField,
  UtmFields,
  useDomainChoices,
  useShortlinks,
} from '@shortlinks/ui';
import { type FormError, formErrorOf, type LinkFormField } from '@shortlinks/ui/errors';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { createBodyOf } from './new-link.ts';

/**
 * Creates a link: where it leads, and optionally its title, slug, tags, UTM parameters, expiry
 * with its fallback, and comments: the same fields, rules and error placement as Edit.
 */
export function NewLinkForm({ tags, onCreated, onCancel }: { tags: Tag[]; onCreated: (link: Link) => void; onCancel: () => void }) {
  const { client, onLinkCreated, messages } = useShortlinks();
  const [draft, setDraft] = useState<LinkDraft>(EMPTY_DRAFT);
  // The domain picked ('' = the workspace's default, as the picker first shows it): not part of the
  // shared draft, since a link's domain is chosen once and never edited.
  const domains = useDomainChoices();
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<FormError>();
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const errorAt = (field: LinkFormField) => (error?.field === field ? error.message : undefined);
  const change = (patch: Partial<LinkDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setError((current) => errorAfterChange(current, patch));
  };

  useEffect(() => {
    // After a refusal the focus goes to the field in error (or the form's banner), as in Edit.
    if (error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-error]')?.focus();
  }, [error]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = draftProblem(draft);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      const chosen = domains ? domain || domains.preferred : undefined;
      const link = await client.links.create({ ...createBodyOf(draft), ...(chosen ? { domain: chosen } : {}) });
      await onLinkCreated(link);
      setDraft(EMPTY_DRAFT);
      setDomain('');
      onCreated(link);
    } catch (caught) {
      setError(formErrorOf(caught, messages));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="panel new-link" onSubmit={submit} noValidate aria-label="New link" ref={form}>
      <h2>New link</h2>
      {error?.field === 'form' ? (
        <div className="banner error" role="alert" tabIndex={-1} data-form-error>
          {error.message}
        </div>
      ) : null}
      <DestinationField
        value={draft.destination}
        error={errorAt('destination_url')}
        hint="An address without https:// gets it."
        onChange={(destination) => change({ destination })}
      />
      <DomainPicker
        choices={domains}
        value={domain}
        error={errorAt('domain')}
        onChange={(name) => {
          setDomain(name);
          setError((current) => (current?.field === 'domain' || current?.field === 'slug' ? undefined : current));
        }}
      />
      <div className="grid-2">
        <Field label="Title" error={errorAt('title')} hint="Empty: the destination's address.">
          {(props) => <input {...props} name="title" value={draft.title} onChange={(e) => change({ title: e.target.value })} />}
        </Field>
        <Field label="Slug" error={errorAt('slug')} hint={`Empty: a random one. ${SLUG_RULE}`}>
          {(props) => <input {...props} name="slug" value={draft.slug} onChange={(e) => change({ slug: e.target.value })} />}
        </Field>
      </div>
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
        passwordProtected={false}
        errors={{ password: errorAt('password'), max_clicks: errorAt('max_clicks'), rules: errorAt('rules'), preview: errorAt('preview') }}
        onChange={(smart) => change({ smart })}
      />
      <Field label="Comments" error={errorAt('comments')}>
        {(props) => <textarea {...props} name="comments" value={draft.comments} onChange={(e) => change({ comments: e.target.value })} />}
      </Field>
      <div className="row end">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Creating…' : 'Create link'}
        </button>
      </div>
    </form>
  );
}
