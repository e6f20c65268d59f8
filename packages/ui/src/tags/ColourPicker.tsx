/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { TagColor } from '@shortlinks/contract';
import { useId } from 'react';

/**
 * The contract's six colours, in its order. Spelt out here because importing values from
 * `@shortlinks/contract` would bundle zod, which Parcel resolves wrongly; the type below makes a
 * colour added to the contract a compile error until it is added here too.
 */
export const TAG_COLORS = ['indigo', 'violet', 'cyan', 'fuchsia', 'lime', 'slate'] as const satisfies readonly TagColor[];
type MissingColour = Exclude<TagColor, (typeof TAG_COLORS)[number]>;
const everyColour: [MissingColour] extends [never] ? true : MissingColour = true;
void everyColour;

/** The six tag colours as swatches: a native radio group, so arrow keys move between them. */
export function ColourPicker({ value, onChange, label }: { value: TagColor; onChange: (color: TagColor) => void; label: string }) {
  const name = useId();
  return (
    <fieldset className="swatches" aria-label={label} style={{ border: 'none', margin: 0, padding: 0 }}>
      {TAG_COLORS.map((color) => (
        <label key={color} className={`swatch swatch-${color}`} title={color} data-checked={color === value}>
          <input type="radio" name={name} value={color} aria-label={color} checked={color === value} onChange={() => onChange(color)} />
        </label>
      ))}
    </fieldset>
  );
}
