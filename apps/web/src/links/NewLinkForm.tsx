import type { Link, Tag } from '@shortlinks/client';
import { Field, TagsField, useShortlinks } from '@shortlinks/ui';
import { type FormError, formErrorOf, type LinkFormField } from '@shortlinks/ui/errors';
import { type FormEvent, useState } from 'react';
import { createBodyOf, EMPTY_DRAFT, type NewLinkDraft, newLinkProblem } from './new-link.ts';

/**
 * Creates a link: where it leads, and optionally its title, slug, tags and comments. UTM parameters
 * and an expiry are set afterwards with Edit, in the same form the list uses for every link.
 */
export function NewLinkForm({ tags, onCreated, onCancel }: { tags: Tag[]; onCreated: (link: Link) => void; onCancel: () => void }) {
  const { client, onLinkCreated } = useShortlinks();
  const [draft, setDraft] = useState<NewLinkDraft>(EMPTY_DRAFT);
  const [error, setError] = useState<FormError>();
  const [saving, setSaving] = useState(false);
  const errorAt = (field: LinkFormField) => (error?.field === field ? error.message : undefined);
  const change = (patch: Partial<NewLinkDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = newLinkProblem(draft);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      const link = await client.links.create(createBodyOf(draft));
      await onLinkCreated(link);
      setDraft(EMPTY_DRAFT);
      onCreated(link);
    } catch (caught) {
      setError(formErrorOf(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="panel new-link" onSubmit={submit} noValidate aria-label="New link">
      <h2>New link</h2>
      {error?.field === 'form' || error?.field === 'utm' || error?.field === 'expires_at' || error?.field === 'expiration_url' ? (
        <div className="banner error" role="alert">
          {error.message}
        </div>
      ) : null}
      <Field label="Destination" error={errorAt('destination_url')}>
        {(props) => (
          <input
            {...props}
            name="destination_url"
            type="url"
            inputMode="url"
            placeholder="https://example.com/page"
            value={draft.destination}
            onChange={(e) => change({ destination: e.target.value })}
          />
        )}
      </Field>
      <div className="grid-2">
        <Field label="Title" error={errorAt('title')} hint="Empty: the destination's address.">
          {(props) => <input {...props} name="title" value={draft.title} onChange={(e) => change({ title: e.target.value })} />}
        </Field>
        <Field label="Slug" error={errorAt('slug')} hint="Empty: a random one. A slug never changes later.">
          {(props) => <input {...props} name="slug" value={draft.slug} onChange={(e) => change({ slug: e.target.value })} />}
        </Field>
      </div>
      <TagsField available={tags} selected={draft.tags} onChange={(names) => change({ tags: names })} error={errorAt('tags')} />
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
