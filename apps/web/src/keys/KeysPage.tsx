import { Confirmation, ErrorBanner } from '@shortlinks/ui';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import type { KeysCalls, KeyView, NewKeyView } from './keys-calls.ts';
import { NewKeyForm } from './NewKeyForm.tsx';
import { NewKeyNotice } from './NewKeyNotice.tsx';
import { type Role, SCOPE_CHOICES, scopesOfRole } from './scope-choices.ts';

/**
 * API keys (docs/accounts.md, "The keys page"): make one (a name, the scopes the role allows, an
 * expiry), shown once with a copy button; the list with each key's scopes, dates and last use;
 * revoking asks first. A person makes keys for themselves; a key's maker acts through it.
 */
export function KeysPage({ calls, role }: { calls: KeysCalls; role: Role }) {
  useDocumentTitle('API keys');
  const [keys, setKeys] = useState<KeyView[]>();
  const [error, setError] = useState<string>();
  const [made, setMade] = useState<NewKeyView>();
  const [version, setVersion] = useState(0);
  const offered = useMemo(() => scopesOfRole(role), [role]);

  useEffect(() => {
    let current = true;
    calls.list().then(
      (list) => {
        if (!current) return;
        setKeys(list);
        setError(undefined);
      },
      (caught) => current && setError((caught as Error).message),
    );
    return () => {
      current = false;
    };
  }, [calls, version]);
  const reload = useCallback(() => setVersion((value) => value + 1), []);

  return (
    <>
      <div className="page-head">
        <h1>API keys</h1>
      </div>
      <p className="keys-intro">
        A key lets a script, a CI job or the browser extension use the API (<code>Authorization: Bearer slk_…</code>) with only the scopes
        you give it, and never more than your role here ({role}).
      </p>
      {error ? <ErrorBanner message={error} /> : null}
      {made ? <NewKeyNotice made={made} onDone={() => setMade(undefined)} /> : null}
      <NewKeyForm
        calls={calls}
        offered={offered}
        onMade={(key) => {
          setMade(key);
          reload();
        }}
      />
      {keys === undefined ? (
        error ? null : (
          <div className="spinner" role="status" aria-label="Loading keys" />
        )
      ) : keys.length === 0 ? (
        <p className="panel">No keys yet.</p>
      ) : (
        <KeyList keys={keys} calls={calls} onRevoked={reload} />
      )}
    </>
  );
}

const day = (at: number) => new Date(at).toLocaleDateString();

function KeyList({ keys, calls, onRevoked }: { keys: KeyView[]; calls: KeysCalls; onRevoked: () => void }) {
  return (
    <div className="panel keys-table-wrap">
      <table className="keys-table" aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} calls={calls} onRevoked={onRevoked} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyRow({ apiKey, calls, onRevoked }: { apiKey: KeyView; calls: KeysCalls; onRevoked: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const expired = apiKey.expires_at !== null && apiKey.expires_at <= Date.now();
  const revoke = async () => {
    setBusy(true);
    try {
      await calls.revoke(apiKey.id);
      onRevoked();
    } catch (caught) {
      setProblem((caught as Error).message);
      setBusy(false);
    }
  };
  return (
    <tr data-testid={`key-${apiKey.id}`} aria-label={apiKey.name}>
      <th scope="row">
        {apiKey.name}
        <br />
        <code className="key-id">{apiKey.id}</code>
      </th>
      <td>
        <ul className="key-scopes" aria-label={`Scopes of ${apiKey.name}`}>
          {apiKey.scopes.map((scope) => (
            <li key={scope}>
              <code title={SCOPE_CHOICES.find((choice) => choice.scope === scope)?.label}>{scope}</code>
            </li>
          ))}
        </ul>
      </td>
      <td>{day(apiKey.created_at)}</td>
      <td data-testid="expires">
        {apiKey.expires_at === null ? 'Never' : expired ? `Expired ${day(apiKey.expires_at)}` : day(apiKey.expires_at)}
      </td>
      <td data-testid="last-used">{apiKey.last_used_at === null ? 'Never' : new Date(apiKey.last_used_at).toLocaleString()}</td>
      <td>
        {asking ? (
          <Confirmation confirmLabel={`Revoke ${apiKey.name}`} busy={busy} onConfirm={revoke} onCancel={() => setAsking(false)}>
            Revoke “{apiKey.name}”? Whatever uses it is refused from its next request, on every server. This cannot be undone.
          </Confirmation>
        ) : (
          <button type="button" className="button small danger" onClick={() => setAsking(true)} aria-label={`Revoke ${apiKey.name}…`}>
            Revoke…
          </button>
        )}
        {problem ? <p role="alert">{problem}</p> : null}
      </td>
    </tr>
  );
}
