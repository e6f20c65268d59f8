import { type FormEvent, useState } from 'react';
import { CallFailed } from '../people/session-calls.ts';
import type { KeysCalls, NewKeyView } from './keys-calls.ts';
import { includedByWrite, readScopeOf, SCOPE_CHOICES, type Scope, scopesToSend } from './scope-choices.ts';

/** How long a new key works; `date` lets the person pick the last day. */
const EXPIRIES = [
  { value: '30', label: 'In 30 days', days: 30 },
  { value: '90', label: 'In 90 days', days: 90 },
  { value: '365', label: 'In a year', days: 365 },
  { value: '7', label: 'In 7 days', days: 7 },
  { value: 'never', label: 'Never', days: null },
  { value: 'date', label: 'On a date…', days: null },
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The form that makes a key: its name, its scopes (only those the role allows), its expiry. */
export function NewKeyForm({ calls, offered, onMade }: { calls: KeysCalls; offered: Scope[]; onMade: (key: NewKeyView) => void }) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Scope[]>([]);
  const [expiry, setExpiry] = useState<(typeof EXPIRIES)[number]['value']>('30');
  const [date, setDate] = useState('');
  const [problem, setProblem] = useState<{ field: string | null; message: string }>();
  const [busy, setBusy] = useState(false);

  const toggle = (scope: Scope, on: boolean) => {
    const read = readScopeOf(scope);
    // A write brings its read with it: shown checked, and sent once.
    setChosen((before) => (on ? [...before, scope, ...(read && !before.includes(read) ? [read] : [])] : before.filter((s) => s !== scope)));
  };

  function expiresAt(): number | null {
    if (expiry === 'never') return null;
    if (expiry === 'date') return date ? new Date(`${date}T23:59:59`).getTime() : Number.NaN;
    const days = EXPIRIES.find((entry) => entry.value === expiry)?.days ?? 30;
    return Date.now() + days * DAY_MS;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const expires_at = expiresAt();
    if (Number.isNaN(expires_at)) {
      setProblem({ field: 'expires_at', message: 'Pick the day the key stops working' });
      return;
    }
    setBusy(true);
    try {
      const made = await calls.create({ name: name.trim(), scopes: scopesToSend(chosen), expires_at });
      setName('');
      setChosen([]);
      setProblem(undefined);
      onMade(made);
    } catch (caught) {
      setProblem({ field: caught instanceof CallFailed ? caught.field : null, message: (caught as Error).message });
    } finally {
      setBusy(false);
    }
  }

  const fieldProblem = (field: string) =>
    problem?.field === field ? (
      <p className="field-error" role="alert">
        {problem.message}
      </p>
    ) : null;

  return (
    <form className="panel key-form" aria-label="Make a key" onSubmit={submit} noValidate>
      <h2 className="key-form-title">Make a key</h2>
      <label>
        Name
        <input
          name="name"
          required
          maxLength={100}
          value={name}
          placeholder="CI job, reporting script…"
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      {fieldProblem('name')}
      <fieldset>
        <legend>Scopes</legend>
        {SCOPE_CHOICES.filter((choice) => offered.includes(choice.scope)).map((choice) => {
          const implied = includedByWrite(choice.scope, chosen);
          return (
            <label key={choice.scope} className="checkbox">
              <input
                type="checkbox"
                name="scopes"
                value={choice.scope}
                checked={chosen.includes(choice.scope) || implied}
                disabled={implied}
                onChange={(event) => toggle(choice.scope, event.target.checked)}
              />
              <code>{choice.scope}</code> <span className="scope-label">{choice.label}</span>
            </label>
          );
        })}
        {offered.length < SCOPE_CHOICES.length ? <p className="hint">Your role offers only these scopes.</p> : null}
      </fieldset>
      {fieldProblem('scopes')}
      <label>
        Expires
        <select name="expiry" value={expiry} onChange={(event) => setExpiry(event.target.value as typeof expiry)}>
          {EXPIRIES.map((entry) => (
            <option key={entry.value} value={entry.value}>
              {entry.label}
            </option>
          ))}
        </select>
      </label>
      {expiry === 'date' ? (
        <label>
          Last day
          <input type="date" name="expires-on" value={date} onChange={(event) => setDate(event.target.value)} />
        </label>
      ) : null}
      {fieldProblem('expires_at')}
      {problem && !['name', 'scopes', 'expires_at'].includes(problem.field ?? '') ? (
        <p className="field-error" role="alert">
          {problem.message}
        </p>
      ) : null}
      <button type="submit" className="button primary" disabled={busy || name.trim() === '' || chosen.length === 0}>
        Make key
      </button>
    </form>
  );
}
