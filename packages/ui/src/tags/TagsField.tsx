/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { TagSummary } from '@shortlinks/contract';
import { Field } from '../Field.tsx';
import { TagPicker } from './TagPicker.tsx';

/** A link's tags as a labelled form field: the tag picker, with the error or hint underneath. */
export function TagsField({
  available,
  selected,
  onChange,
  error,
}: {
  available: TagSummary[];
  selected: string[];
  onChange: (names: string[]) => void;
  error: string | undefined;
}) {
  return (
    <Field label="Tags" error={error} hint="Type to find a tag, or a new name; Enter adds it.">
      {(props) => (
        <TagPicker
          available={available}
          selected={selected}
          onChange={onChange}
          inputId={props.id}
          invalid={props['aria-invalid']}
          describedBy={props['aria-describedby']}
        />
      )}
    </Field>
  );
}
