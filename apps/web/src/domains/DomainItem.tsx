import type { Domain, ShortlinksClient } from '@shortlinks/client';
import { Confirmation } from '@shortlinks/ui';
import { useState } from 'react';
import { Link } from 'wouter';
import { linksAddress } from '../routes.ts';
import { DomainRecord } from './DomainRecord.tsx';
import { domainErrorOf } from './domain-errors.ts';
import { STATUS_LABELS, statusTone } from './domain-status.ts';
import { RedirectsForm } from './RedirectsForm.tsx';

/** One domain: its status and why, the record to set, Verify, Make default, its redirects, Delete. */
export function DomainItem({ client, domain, onChanged }: { client: ShortlinksClient; domain: Domain; onChanged: () => void }) {
  const [problem, setProblem] = useState<{ message: string; hasLinks: boolean }>();
  const [verified, setVerified] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(undefined);
    setVerified(undefined);
    try {
      await work();
      onChanged();
    } catch (caught) {
      const error = domainErrorOf(caught);
      setProblem({ message: error.message, hasLinks: (caught as { code?: string }).code === 'DOMAIN_HAS_LINKS' });
    } finally {
      setBusy(false);
    }
  };

  const verify = () =>
    act(async () => {
      const checked = await client.domains.verify(domain.id);
      setVerified(
        checked.verified
          ? `Verified: links on ${checked.name} are served now.`
          : `Not verified. ${checked.verification.error ?? 'The record was not found.'}`,
      );
    });

  const serving = domain.status === 'verified' || domain.status === 'record_missing';
  return (
    <li className="panel domain" aria-label={domain.name} data-testid="domain">
      <div className="domain-head">
        <strong className="domain-name">{domain.name}</strong>
        <span className={`badge ${statusTone(domain.status)}`} data-testid="domain-status">
          {STATUS_LABELS[domain.status]}
        </span>
        {domain.is_default ? <span className="badge ok">Default</span> : null}
      </div>
      {/* A pending domain's reason is its record, shown below; the others' say when or why it stops. */}
      {domain.status_reason && domain.status !== 'pending' ? (
        <p className={domain.status === 'stopped' ? 'banner error' : 'muted'} data-testid="domain-reason">
          {domain.status_reason}
        </p>
      ) : null}
      <DomainRecord domain={domain} />
      {verified ? (
        <p className={domain.verified ? 'banner ok' : 'banner warning'} role="status" data-testid="verify-result">
          {verified}
        </p>
      ) : domain.verification.error && !domain.verified ? (
        <p className="muted" data-testid="verify-result">
          Last look-up: {domain.verification.error}
        </p>
      ) : null}
      {problem ? (
        <div className="banner error" role="alert">
          {problem.message} {problem.hasLinks ? <Link href={linksAddress({ domain: domain.name })}>Show its links</Link> : null}
        </div>
      ) : null}
      <div className="domain-actions">
        <button type="button" className="button small primary" disabled={busy} onClick={verify}>
          {domain.verified ? 'Check record now' : 'Verify'}
        </button>
        {serving && !domain.is_default ? (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => act(() => client.domains.update({ id: domain.id, is_default: true }))}
          >
            Make default
          </button>
        ) : null}
        {domain.is_default ? (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => act(() => client.domains.update({ id: domain.id, is_default: false }))}
          >
            Stop being default
          </button>
        ) : null}
        <button type="button" className="button small danger" disabled={busy} onClick={() => setDeleting(true)}>
          Delete
        </button>
      </div>
      {deleting ? (
        <Confirmation
          confirmLabel={`Delete ${domain.name}`}
          busy={busy}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            void act(() => client.domains.delete(domain.id));
          }}
        >
          Delete {domain.name}? A domain with live links cannot be deleted: delete its links first.
        </Confirmation>
      ) : null}
      <RedirectsForm client={client} domain={domain} onSaved={onChanged} />
    </li>
  );
}
