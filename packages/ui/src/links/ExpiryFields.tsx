/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { TextField } from '../Field.tsx';
import { completeAddress } from './web-address.ts';

/**
 * A link's expiry and the address visits go to after it, folded away until set or in error. The
 * fallback is completed like the destination (`example.com/x` → `https://example.com/x`) when the
 * person leaves it.
 */
export function ExpiryFields({
  expiresAt,
  expirationUrl,
  errors,
  onChange,
}: {
  /** A `datetime-local` value, or ''. */
  expiresAt: string;
  expirationUrl: string;
  errors: { expiresAt: string | undefined; expirationUrl: string | undefined };
  onChange: (patch: { expiresAt?: string; expirationUrl?: string }) => void;
}) {
  return (
    <details open={expiresAt !== '' || Boolean(errors.expiresAt || errors.expirationUrl)}>
      <summary>Expiry</summary>
      <div className="grid-2">
        <TextField
          label="Expires at"
          error={errors.expiresAt}
          type="datetime-local"
          name="expires_at"
          value={expiresAt}
          onValueChange={(value) => onChange({ expiresAt: value })}
        />
        <TextField
          label="Then redirect to"
          error={errors.expirationUrl}
          type="url"
          inputMode="url"
          name="expiration_url"
          placeholder="https://…"
          value={expirationUrl}
          onValueChange={(value) => onChange({ expirationUrl: value })}
          onBlur={() => {
            const completed = completeAddress(expirationUrl);
            if (completed !== expirationUrl) onChange({ expirationUrl: completed });
          }}
        />
      </div>
    </details>
  );
}
