/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { TextField } from '../Field.tsx';
import { UTM_KEYS, type UtmKey } from './link-draft.ts';

/**
 * The five UTM parameters, folded away until one is set or in error. The server merges them into
 * the destination (spec: POST /links, utm), so New link and Edit show the same fields.
 */
export function UtmFields({
  utm,
  error,
  onChange,
}: {
  utm: Record<UtmKey, string>;
  error: string | undefined;
  onChange: (utm: Record<UtmKey, string>) => void;
}) {
  const hasUtm = UTM_KEYS.some((key) => utm[key] !== '');
  return (
    <details open={hasUtm || Boolean(error)}>
      <summary>UTM parameters</summary>
      {error ? (
        <div className="banner error" role="alert" tabIndex={-1} data-form-error>
          {error}
        </div>
      ) : null}
      <div className="grid-2">
        {UTM_KEYS.map((key) => (
          <TextField
            key={key}
            label={`utm_${key}`}
            name={`utm_${key}`}
            value={utm[key]}
            onValueChange={(value) => onChange({ ...utm, [key]: value })}
          />
        ))}
      </div>
    </details>
  );
}
