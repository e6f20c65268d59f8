import { useEffect, useState } from 'react';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { type DomainChoices, domainChoicesOf } from './domain-choices.ts';

/**
 * The workspace's domain choices, loaded once (and again when `version` changes). Undefined while
 * loading, when there is no branded domain, or when the list cannot be read: the form then leaves
 * `domain` out, so the link goes on the default domain as it would without a picker.
 */
export function useDomainChoices(version = 0): DomainChoices | undefined {
  const { client } = useShortlinks();
  const [choices, setChoices] = useState<DomainChoices>();
  useEffect(() => {
    void version;
    let current = true;
    // Through a promise, so a client without domains (an older server, a test's stand-in) is a refusal, not a crash.
    Promise.resolve()
      .then(() => client.domains.list())
      .then(
        (list) => current && setChoices(domainChoicesOf(list)),
        () => current && setChoices(undefined),
      );
    return () => {
      current = false;
    };
  }, [client, version]);
  return choices;
}
