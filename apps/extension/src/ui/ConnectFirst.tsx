/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { useEffect, useRef } from 'react';

/** Shown by every page until the options hold a server address and an API key; its button has the focus. */
export function ConnectFirst() {
  const open = useRef<HTMLButtonElement>(null);
  useEffect(() => open.current?.focus(), []);
  return (
    <div className="banner info">
      Connect the extension to your Shortlinks server first.{' '}
      <button type="button" className="button small primary" ref={open} onClick={() => chrome.runtime.openOptionsPage()}>
        Open options
      </button>
    </div>
  );
}
