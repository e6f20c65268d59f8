import type { Domain, ShortlinksClient } from '@shortlinks/client';
import { TextField } from '@shortlinks/ui';
import { type FormEvent, useState } from 'react';
import { type DomainFormError, domainErrorOf } from './domain-errors.ts';
import { redirectInput, redirectValue } from './domain-status.ts';

/**
 * Where the domain's root (`/`) and an unknown slug lead; empty: the usual 404 page. The server
 * checks both as destinations, and a refusal is shown at its field.
 */
export function RedirectsForm({ client, domain, onSaved }: { client: ShortlinksClient; domain: Domain; onSaved: () => void }) {
  const [root, setRoot] = useState(redirectInput(domain.root_redirect_url));
  const [notFound, setNotFound] = useState(redirectInput(domain.not_found_url));
  const [error, setError] = useState<DomainFormError>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const errorAt = (field: DomainFormError['field']) => (error?.field === field ? error.message : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setSaved(false);
    try {
      await client.domains.update({ id: domain.id, root_redirect_url: redirectValue(root), not_found_url: redirectValue(notFound) });
      setError(undefined);
      setSaved(true);
      onSaved();
    } catch (caught) {
      setError(domainErrorOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="domain-redirects" aria-label={`Redirects of ${domain.name}`} onSubmit={submit} noValidate>
      <TextField
        label="Root redirect URL"
        name="root_redirect_url"
        type="url"
        value={root}
        placeholder="https://acme.com"
        error={errorAt('root_redirect_url')}
        hint={`Where ${domain.name}/ leads. Empty: the 404 page.`}
        onValueChange={(value) => {
          setRoot(value);
          setSaved(false);
        }}
      />
      <TextField
        label="Not-found URL"
        name="not_found_url"
        type="url"
        value={notFound}
        placeholder="https://acme.com/missing"
        error={errorAt('not_found_url')}
        hint="Where an unknown slug leads. Empty: the 404 page."
        onValueChange={(value) => {
          setNotFound(value);
          setSaved(false);
        }}
      />
      {error?.field === 'form' || error?.field === 'name' ? (
        <p className="banner error" role="alert">
          {error.message}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="button small" disabled={busy}>
          Save redirects
        </button>
        {saved ? (
          <span className="muted" role="status">
            Saved.
          </span>
        ) : null}
      </div>
    </form>
  );
}
