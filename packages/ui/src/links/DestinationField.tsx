/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { TextField } from '../Field.tsx';
import { completeAddress } from './web-address.ts';

/**
 * Where a link leads, in New link and Edit. An address typed without a scheme is completed with
 * https:// when the person leaves the field, so they see it before saving; the rest of the rules
 * (http or https, no private hosts, the URL safety check) are the server's, and its refusal is
 * shown here.
 */
export function DestinationField({
  value,
  error,
  hint,
  onChange,
}: {
  value: string;
  error: string | undefined;
  hint?: string;
  onChange: (destination: string) => void;
}) {
  return (
    <TextField
      label="Destination"
      error={error}
      hint={hint}
      name="destination_url"
      type="url"
      inputMode="url"
      autoComplete="url"
      placeholder="https://example.com/page"
      value={value}
      onValueChange={onChange}
      onBlur={() => {
        const completed = completeAddress(value);
        if (completed !== value) onChange(completed);
      }}
    />
  );
}
