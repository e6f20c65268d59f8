import type { ShortlinksClient } from '@shortlinks/client';
import { TextField } from '@shortlinks/ui';
import { type FormEvent, useState } from 'react';
import { domainErrorOf } from './domain-errors.ts';

/** Adds a domain by name; the new domain then shows the record to set. */
export function AddDomainForm({ client, onAdded }: { client: ShortlinksClient; onAdded: () => void }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await client.domains.create({ name });
      setName('');
      setProblem(undefined);
      onAdded();
    } catch (caught) {
      setProblem(domainErrorOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel domain-form" aria-label="Add a domain" onSubmit={submit} noValidate>
      <TextField
        label="Domain name"
        name="name"
        value={name}
        onValueChange={(value) => {
          setName(value);
          setProblem(undefined);
        }}
        placeholder="go.acme.com"
        autoComplete="off"
        spellCheck={false}
        error={problem}
        hint="A name you control, such as a subdomain of your company's."
      />
      <button type="submit" className="button primary" disabled={busy || name.trim() === ''}>
        {busy ? 'Adding…' : 'Add domain'}
      </button>
    </form>
  );
}
