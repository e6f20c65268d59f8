/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).

/** A failure in words, with **Try again** when asking once more may help (a lost connection, a busy server). */
export function ErrorBanner({ message, onRetry }: { message: string; onRetry?: (() => void) | undefined }) {
  return (
    <div className="banner error banner-with-action" role="alert">
      <span>{message}</span>
      {onRetry ? (
        <button type="button" className="button small" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
