/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import '@shortlinks/ui/theme.css';
import { PlanUsage, TextField } from '@shortlinks/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { newConnectRequest, waitForKey } from './lib/connect.ts';
import { type ConnectionReport, testConnection } from './lib/connection.ts';
import { parseServerUrl } from './lib/server-url.ts';
import { loadSettings, type Settings, saveSettings } from './lib/settings.ts';

/** What the last Save did; each attempt replaces the one before, and editing a field clears it. */
type Outcome =
  | { kind: 'saved'; report: ConnectionReport & { ok: true }; host: string }
  | { kind: 'connecting' }
  | { kind: 'not-connected'; message: string }
  | { kind: 'refused'; report: ConnectionReport & { ok: false }; settings: Settings }
  | { kind: 'saved-untested' };

/**
 * Options: the server address and API key, kept in this browser. **Save** checks them with a real
 * call first and keeps only settings that work: a refused key or an address where no Shortlinks
 * server answers is not saved, and says why. A server that cannot be reached right now (down, or
 * the network) may be saved anyway, on purpose.
 */
export default function Options() {
  const [serverUrl, setServerUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [urlProblem, setUrlProblem] = useState<string>();
  const [keyProblem, setKeyProblem] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  /** Stops the wait for an approval when the page goes or Connect starts again. */
  const waiting = useRef<AbortController>(undefined);
  useEffect(() => () => waiting.current?.abort(), []);

  useEffect(() => {
    loadSettings().then((settings) => {
      if (!settings) return;
      setServerUrl(settings.serverUrl);
      setApiKey(settings.apiKey);
    });
  }, []);

  /** The settings as typed, or undefined after showing what is wrong with them. */
  const validated = (): Settings | undefined => {
    const parsed = parseServerUrl(serverUrl);
    setUrlProblem('problem' in parsed ? parsed.problem : undefined);
    const key = apiKey.trim();
    setKeyProblem(key === '' ? 'Enter the API key your server’s operator gave you (it starts with slk_).' : undefined);
    if ('problem' in parsed || key === '') return undefined;
    return { serverUrl: parsed.origin, apiKey: key };
  };

  const keep = async (settings: Settings) => {
    await saveSettings(settings);
    setServerUrl(settings.serverUrl);
    setApiKey(settings.apiKey);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(undefined);
    const settings = validated();
    if (!settings) return;
    setBusy(true);
    const report = await testConnection(settings);
    if (report.ok) {
      await keep(settings);
      setOutcome({ kind: 'saved', report, host: new URL(settings.serverUrl).host });
    } else {
      setOutcome({ kind: 'refused', report, settings });
    }
    setBusy(false);
  };

  /**
   * Connect: opens the dashboard, where the signed-in person approves, then receives the key
   * itself (lib/connect.ts) and keeps it like a pasted one.
   */
  const connect = async () => {
    setOutcome(undefined);
    const parsed = parseServerUrl(serverUrl);
    setUrlProblem('problem' in parsed ? parsed.problem : undefined);
    setKeyProblem(undefined);
    if ('problem' in parsed) return;
    waiting.current?.abort();
    const controller = new AbortController();
    waiting.current = controller;
    const { verifier, dashboardUrl } = await newConnectRequest(parsed.origin);
    await chrome.tabs.create({ url: dashboardUrl });
    setOutcome({ kind: 'connecting' });
    const answer = await waitForKey(parsed.origin, verifier, controller.signal);
    if (controller.signal.aborted) return;
    if ('problem' in answer) {
      const message =
        answer.problem === 'declined'
          ? 'The request was declined in the dashboard: no key was given.'
          : 'The request expired. Click Connect to try again.';
      setOutcome({ kind: 'not-connected', message });
      return;
    }
    const settings = { serverUrl: parsed.origin, apiKey: answer.key };
    await keep(settings);
    const report = await testConnection(settings);
    setOutcome(report.ok ? { kind: 'saved', report, host: new URL(settings.serverUrl).host } : { kind: 'saved-untested' });
  };

  const saveUntested = async (settings: Settings) => {
    await keep(settings);
    setOutcome({ kind: 'saved-untested' });
  };

  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setOutcome(undefined);
  };

  return (
    <main style={{ maxWidth: 560, margin: '32px auto', padding: '0 16px' }}>
      <h1 style={{ marginBottom: 4 }}>Shortlinks options</h1>
      <p className="muted" style={{ marginTop: 0 }}>
        Connect the extension to your Shortlinks server. The key is kept in this browser only.
      </p>
      <form onSubmit={save} noValidate aria-label="Connection settings">
        <TextField
          label="Server address"
          error={urlProblem}
          hint="For example https://links.example.com"
          name="server_url"
          type="url"
          autoComplete="url"
          value={serverUrl}
          onValueChange={edit(setServerUrl)}
        />
        <TextField
          label="API key"
          error={keyProblem}
          name="api_key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={apiKey}
          onValueChange={edit(setApiKey)}
        />
        <div className="row" style={{ marginBottom: 12 }}>
          <button type="button" className="button" onClick={connect} disabled={busy}>
            Connect
          </button>
          <span className="muted" style={{ fontSize: 12 }}>
            Or let the dashboard give the extension a key: approve it there, signed in as yourself.
          </span>
        </div>
        <div className="row">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Checking…' : 'Save'}
          </button>
          <span className="muted" style={{ fontSize: 12 }}>
            Save checks the address and the key with your server first.
          </span>
        </div>
      </form>
      <div style={{ marginTop: 16 }} aria-live="polite" data-testid="connection-report">
        {outcome ? <OutcomeBanner outcome={outcome} onSaveAnyway={saveUntested} /> : null}
      </div>
    </main>
  );
}

function OutcomeBanner({ outcome, onSaveAnyway }: { outcome: Outcome; onSaveAnyway: (settings: Settings) => void }) {
  if (outcome.kind === 'saved') {
    const { report } = outcome;
    return (
      <div className="banner ok" role="status">
        <p style={{ margin: '0 0 10px' }}>
          <strong>Saved.</strong> Connected to {outcome.host}.
        </p>
        <div className="row" style={{ gap: 32 }}>
          <PlanUsage label="links" used={report.links} limit={report.linkLimit} />
          <PlanUsage label="tags" used={report.tags} limit={report.tagLimit} />
        </div>
      </div>
    );
  }
  if (outcome.kind === 'connecting') {
    return (
      <div className="banner info" role="status">
        <strong>Waiting for your approval</strong> in the dashboard tab that just opened…
      </div>
    );
  }
  if (outcome.kind === 'not-connected') {
    return (
      <div className="banner error" role="alert">
        <strong>Not connected.</strong> {outcome.message}
      </div>
    );
  }
  if (outcome.kind === 'saved-untested') {
    return (
      <div className="banner info" role="status">
        <strong>Saved without a connection.</strong> The popup will say so until the server can be reached.
      </div>
    );
  }
  const { report, settings } = outcome;
  return (
    <div className="banner error banner-with-action" role="alert">
      <span>
        <strong>Not saved.</strong> {report.message}
      </span>
      {report.problem === 'unreachable' ? (
        <button type="button" className="button small" onClick={() => onSaveAnyway(settings)}>
          Save anyway
        </button>
      ) : null}
    </div>
  );
}
