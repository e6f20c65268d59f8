/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { Field } from '../Field.tsx';
import type { DomainChoices } from './domain-choices.ts';

/**
 * The domain a new link goes on (docs/domains.md): shown only when the workspace serves a branded
 * domain, starting at its default. A link's domain never changes after, so Edit has no picker.
 */
export function DomainPicker({
  choices,
  value,
  error,
  onChange,
}: {
  choices: DomainChoices | undefined;
  value: string;
  error?: string | undefined;
  onChange: (name: string) => void;
}) {
  if (!choices) return null;
  return (
    <Field label="Domain" error={error} hint="Where the short link lives; it cannot be changed later.">
      {(props) => (
        <select
          {...props}
          name="domain"
          className="input"
          value={value || choices.preferred}
          onChange={(event) => onChange(event.target.value)}
        >
          {choices.names.map((name) => (
            <option key={name} value={name}>
              {name}
              {name === choices.preferred ? ' (default)' : ''}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
