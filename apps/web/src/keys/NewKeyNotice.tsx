import { useState } from 'react';
import type { NewKeyView } from './keys-calls.ts';

/** The new key, shown this once: copy it now, it cannot be shown again (only its hash is kept). */
export function NewKeyNotice({ made, onDone }: { made: NewKeyView; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(made.key);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="panel new-key" aria-label="New key">
      <div className="banner warning" role="alert">
        Copy the key “{made.name}” now: it is shown only this once. Anyone holding it can do what its scopes allow, so keep it secret.
      </div>
      <div className="row new-key-value">
        <code data-testid="new-key">{made.key}</code>
        <button type="button" className="button small" onClick={copy}>
          Copy
        </button>
        {copied === 'yes' ? <span role="status">Copied</span> : null}
        {copied === 'failed' ? <span role="status">Copying failed: select the key and copy it by hand</span> : null}
      </div>
      <p>
        Scopes: <code>{made.scopes.join(', ')}</code>.{' '}
        {made.expires_at === null ? 'It does not expire.' : `It stops working on ${new Date(made.expires_at).toLocaleString()}.`}
      </p>
      <button type="button" className="button small" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
