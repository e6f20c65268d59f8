/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { DomainPicker, ErrorBanner, useDomainChoices, useShortlinks } from '@shortlinks/ui';
import { formErrorOf } from '@shortlinks/ui/errors';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { linkTitleOf } from '../lib/page-title.ts';
import { secretParamsOf, withoutParams } from '../lib/secret-params.ts';

/** The tab the popup is about. */
export interface Page {
  url: string;
  title: string | undefined;
}

const listed = (names: string[]) =>
  names.length === 1
    ? `“${names[0]}”`
    : `${names
        .slice(0, -1)
        .map((name) => `“${name}”`)
        .join(', ')} and “${names.at(-1)}”`;

/**
 * The popup on a page without a link: what the page is, and **Shorten** (focused, so Enter makes
 * the link). Nothing is created before that. When the address carries parameters that look like
 * secrets (`?session=…`, `?token=…`), it says so and leaves them out of the link unless told otherwise.
 * When the workspace serves branded domains, a picker chooses the link's domain (its default first).
 */
export function PageHome({
  page,
  notice,
  onShorten,
}: {
  page: Page;
  notice?: string | undefined;
  /** `domain`: the one picked, when the workspace serves branded domains (docs/domains.md). */
  onShorten: (destination: string, domain: string | undefined) => Promise<void>;
}) {
  const { messages } = useShortlinks();
  const secrets = secretParamsOf(page.url);
  const [leaveOut, setLeaveOut] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const domains = useDomainChoices();
  const [domain, setDomain] = useState('');
  const shorten = useRef<HTMLButtonElement>(null);
  useEffect(() => shorten.current?.focus(), []);
  const destination = secrets.length > 0 && leaveOut ? withoutParams(page.url, secrets) : page.url;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onShorten(destination, domains ? domain || domains.preferred : undefined);
    } catch (caught) {
      setError(formErrorOf(caught, messages).message);
      setBusy(false);
      shorten.current?.focus();
    }
  };

  return (
    <form className="page-home" onSubmit={submit} aria-label="Shorten this page">
      {notice ? (
        <div className="banner ok" role="status">
          {notice}
        </div>
      ) : null}
      <div className="page-card">
        <div className="page-title">{linkTitleOf(page.title, page.url)}</div>
        <div className="page-url" data-testid="destination" title={destination}>
          {destination}
        </div>
      </div>
      {secrets.length > 0 ? (
        <div className="banner warning">
          <p>This address carries {listed(secrets)}, which may let anyone with the link use your session or account.</p>
          <label className="check">
            <input type="checkbox" checked={leaveOut} onChange={(event) => setLeaveOut(event.target.checked)} />
            Leave {secrets.length === 1 ? 'it' : 'them'} out of the short link
          </label>
        </div>
      ) : null}
      <DomainPicker choices={domains} value={domain} onChange={setDomain} />
      {error ? <ErrorBanner message={error} /> : null}
      <button type="submit" className="button primary wide" ref={shorten} disabled={busy}>
        {busy ? 'Shortening…' : 'Shorten'}
      </button>
      <p className="muted page-home-hint">Makes a short link for this page and copies it.</p>
    </form>
  );
}
