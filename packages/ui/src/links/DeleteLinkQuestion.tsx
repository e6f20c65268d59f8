/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link } from '@shortlinks/client';
import { Confirmation } from '../Confirmation.tsx';
import { countOf } from '../counts.ts';

/** The question before a link is deleted, in a row and on its page: what stops working, and what stays. */
export function DeleteLinkQuestion({ link, onConfirm, onCancel }: { link: Link; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Confirmation confirmLabel="Delete link" onConfirm={onConfirm} onCancel={onCancel}>
      Delete {link.short_url}? It stops working at once, and this cannot be undone.
      {link.click_count > 0 ? ` Its ${countOf(link.click_count, 'click')} stay in the account’s overview.` : ''}
    </Confirmation>
  );
}
