/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import '@shortlinks/ui/theme.css';
import { Field } from '@shortlinks/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { type ConnectionReport, testConnection } from './lib/connection.ts';
import { parseServerUrl } from './lib/server-url.ts';
import { loadSettings, saveSettings } from './lib/settings.ts';

const limit = (value: number | null) => (value === null ? 'unlimited' : String(value));

/** Options: the server address and API key, saved in the browser, and a connection test. */
export default function Options() {
  const [serverUrl, setServerUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [urlProblem, setUrlProblem] = useState<string>();
  const [keyProblem, setKeyProblem] = useState<string>();
  const [report, setReport] = useState<ConnectionReport>();
  const [busy, setBusy] = useState<'testing' | 'saving'>();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    loadSettings().then((settings) => {
      if (!settings) return;
      setServerUrl(settings.serverUrl);
      setApiKey(settings.apiKey);
    });
  }, []);

  /** The settings as typed, or undefined after showing what is wrong with them. */
  const validated = () => {
    const parsed = parseServerUrl(serverUrl);
    setUrlProblem('problem' in parsed ? parsed.problem : undefined);
    const key = apiKey.trim();
    setKeyProblem(key === '' ? 'Enter the API key your server’s operator gave you (it starts with slk_).' : undefined);
    if ('problem' in parsed || key === '') return undefined;
    return { serverUrl: parsed.origin, apiKey: key };
  };

  const test = async () => {
    const settings = validated();
    if (!settings) return;
    setBusy('testing');
    setReport(undefined);
    setReport(await testConnection(settings));
    setBusy(undefined);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const settings = validated();
    if (!settings) return;
    setBusy('saving');
    await saveSettings(settings);
    setServerUrl(settings.serverUrl);
    setSaved(true);
    setBusy(undefined);
  };

  return (
    <main style={{ maxWidth: 560, margin: '32px auto', padding: '0 16px' }}>
      <h1 style={{ marginBottom: 4 }}>Shortlinks options</h1>
      <p className="muted" style={{ marginTop: 0 }}>
        Connect the extension to your Shortlinks server. The key is kept in this browser only.
      </p>
      <form onSubmit={save} noValidate aria-label="Connection settings">
        <Field label="Server address" error={urlProblem} hint="For example https://links.example.com">
          {(props) => (
            <input
              {...props}
              name="server_url"
              type="url"
              autoComplete="url"
              value={serverUrl}
              onChange={(event) => {
                setServerUrl(event.target.value);
                setSaved(false);
              }}
            />
          )}
        </Field>
        <Field label="API key" error={keyProblem}>
          {(props) => (
            <input
              {...props}
              name="api_key"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              onChange={(event) => {
                setApiKey(event.target.value);
                setSaved(false);
              }}
            />
          )}
        </Field>
        <div className="row">
          <button type="submit" className="button primary" disabled={busy !== undefined}>
            Save
          </button>
          <button type="button" className="button" onClick={test} disabled={busy !== undefined}>
            {busy === 'testing' ? 'Testing…' : 'Test connection'}
          </button>
          <span role="status" className="muted">
            {saved ? 'Saved' : ''}
          </span>
        </div>
      </form>
      <div style={{ marginTop: 16 }} aria-live="polite" data-testid="connection-report">
        {report?.ok ? (
          <div className="banner ok">
            Connected. {report.links} of {limit(report.linkLimit)} links and {report.tags} of {limit(report.tagLimit)} tags in use.
          </div>
        ) : null}
        {report && !report.ok ? <div className="banner error">{report.message}</div> : null}
      </div>
    </main>
  );
}
