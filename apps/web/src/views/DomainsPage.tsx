import type { Domain } from '@shortlinks/client';
import { useShortlinks } from '@shortlinks/ui';
import { formErrorOf } from '@shortlinks/ui/errors';
import { useCallback, useEffect, useState } from 'react';
import { AddDomainForm } from '../domains/AddDomainForm.tsx';
import { DomainItem } from '../domains/DomainItem.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/**
 * Branded domains (docs/domains.md), for admins and owners: add one, the TXT record to set (with
 * copy buttons), verify it and read what was found, make it the default, set its root and
 * not-found redirects, delete it; a stopped domain says why.
 */
export function DomainsPage() {
  useDocumentTitle('Domains');
  const { client } = useShortlinks();
  const [domains, setDomains] = useState<Domain[]>();
  const [serverDomain, setServerDomain] = useState<string>();
  const [error, setError] = useState<string>();
  const [version, setVersion] = useState(0);
  const changed = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    void version;
    let current = true;
    client.domains.list().then(
      (list) => {
        if (!current) return;
        setDomains(list.domains);
        setServerDomain(list.server_domain);
      },
      (caught) => current && setError(formErrorOf(caught).message),
    );
    return () => {
      current = false;
    };
  }, [client, version]);

  return (
    <>
      <div className="page-head">
        <h1>Domains</h1>
      </div>
      <p className="muted domains-intro">
        Serve short links on your own domain (<code>go.acme.com/launch</code>)
        {serverDomain ? (
          <>
            {' '}
            besides <code>{serverDomain}</code>
          </>
        ) : null}
        : add it, set one DNS record, verify. Point the domain itself at this server; HTTPS comes from the server's TLS proxy.
      </p>
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
      <AddDomainForm client={client} onAdded={changed} />
      {domains === undefined ? (
        !error ? (
          <div className="spinner" role="status" aria-label="Loading domains" />
        ) : null
      ) : domains.length === 0 ? (
        <p className="panel">No domains yet. Links live on {serverDomain ?? "the server's domain"}.</p>
      ) : (
        <ul className="domain-list" aria-label="Domains">
          {domains.map((domain) => (
            <DomainItem key={domain.id} client={client} domain={domain} onChanged={changed} />
          ))}
        </ul>
      )}
    </>
  );
}
