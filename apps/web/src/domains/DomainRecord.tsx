import type { Domain } from '@shortlinks/client';
import { useShortlinks } from '@shortlinks/ui';
import { useState } from 'react';

/**
 * The DNS record that proves the domain is ours to serve: its type, name and value, each name and
 * value with a Copy button. It stays needed after verification (the periodic re-check reads it).
 */
export function DomainRecord({ domain }: { domain: Domain }) {
  const { verification } = domain;
  return (
    <section className="domain-record" aria-label={`DNS record for ${domain.name}`}>
      <p className="muted">
        {domain.verified
          ? 'Keep this record: the server checks it again regularly, and stops serving the domain 7 days after it goes.'
          : `Set this record at your DNS provider, point ${domain.name} at this server, then verify.`}
      </p>
      <dl>
        <dt>Type</dt>
        <dd>
          <code>{verification.type}</code>
        </dd>
        <dt>Name</dt>
        <dd>
          <code data-testid="record-name">{verification.name}</code> <CopyButton text={verification.name} what="the record name" />
        </dd>
        <dt>Value</dt>
        <dd>
          <code data-testid="record-value">{verification.value}</code> <CopyButton text={verification.value} what="the record value" />
        </dd>
      </dl>
    </section>
  );
}

function CopyButton({ text, what }: { text: string; what: string }) {
  const { copyText } = useShortlinks();
  const [copied, setCopied] = useState(false);
  return (
    <button type="button" className="button tiny" aria-label={`Copy ${what}`} onClick={async () => setCopied(await copyText(text))}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
