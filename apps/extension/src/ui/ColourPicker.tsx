/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { TAG_COLORS, type TagColor } from '@shortlinks/contract';
import { useId } from 'react';

/** The six tag colours as swatches: a native radio group, so arrow keys move between them. */
export function ColourPicker({ value, onChange, label }: { value: TagColor; onChange: (color: TagColor) => void; label: string }) {
  const name = useId();
  return (
    <fieldset className="swatches" aria-label={label} style={{ border: 'none', margin: 0, padding: 0 }}>
      {TAG_COLORS.map((color) => (
        <label key={color} className={`swatch swatch-${color}`} title={color} data-checked={color === value}>
          <input
            type="radio"
            className="visually-hidden"
            name={name}
            value={color}
            aria-label={color}
            checked={color === value}
            onChange={() => onChange(color)}
          />
        </label>
      ))}
    </fieldset>
  );
}
