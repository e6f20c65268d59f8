/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { useState } from 'react';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { shortUrlText } from './link-dates.ts';

/** A short URL as a link, and its Copy button (which says Copied once it has): in a row and on a link's page. */
export function ShortUrlCopy({ shortUrl }: { shortUrl: string }) {
  const { copyText } = useShortlinks();
  const [copied, setCopied] = useState(false);
  return (
    <>
      <a className="link-short" href={shortUrl} target="_blank" rel="noreferrer">
        {shortUrlText(shortUrl)}
      </a>
      <button
        type="button"
        className="button tiny"
        aria-label={`Copy ${shortUrl}`}
        onClick={async () => setCopied(await copyText(shortUrl))}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </>
  );
}
