/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { Fragment } from 'react';

/**
 * A short URL that may wrap only after a `/` (`https://` · `sho.rt/` · `spring`), never inside the
 * host or the slug: a slug split over two lines reads as two words, or as a different slug. A slug
 * wider than the popup ends in an ellipsis on its line; the element's title holds it whole.
 */
export function ShortUrlText({ url }: { url: string }) {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  const path = url.slice(scheme.length).split(/(?<=\/)/);
  const slug = path.pop() ?? '';
  const pieces = [scheme, ...path].filter((piece) => piece !== '');
  return (
    <>
      {pieces.map((piece, index) => (
        <Fragment key={index}>
          {piece}
          <wbr />
        </Fragment>
      ))}
      {slug !== '' ? <span className="short-url-slug">{slug}</span> : null}
    </>
  );
}
