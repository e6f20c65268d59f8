/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A question asked in place before something that cannot be taken back (deleting a link or a
 * tag, moving a link to a new slug): what is lost, a red button that does it, and one that keeps
 * things as they are. The keeping button takes the focus, so a stray Enter loses nothing.
 */
export function Confirmation({
  children,
  confirmLabel,
  cancelLabel = 'Keep',
  busy = false,
  onConfirm,
  onCancel,
}: {
  /** What happens, in words: "Delete sho.rt/spring? It stops working at once…" */
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <fieldset className="confirmation" aria-label={confirmLabel}>
      <p className="confirmation-question">{children}</p>
      <div className="row confirmation-actions">
        <button type="button" className="button small danger confirm" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
        <button type="button" className="button small" ref={keep} onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
      </div>
    </fieldset>
  );
}
