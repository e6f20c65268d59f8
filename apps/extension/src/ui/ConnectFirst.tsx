/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).

/** Shown by every page until the options hold a server address and an API key. */
export function ConnectFirst() {
  return (
    <div className="banner info">
      Connect the extension to your Shortlinks server first.{' '}
      <button type="button" className="button small primary" onClick={() => chrome.runtime.openOptionsPage()}>
        Open options
      </button>
    </div>
  );
}
