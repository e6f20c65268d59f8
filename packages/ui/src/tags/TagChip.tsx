/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { TagSummary } from '@shortlinks/contract';

/** A tag in its colour. */
export function TagChip({ tag }: { tag: Pick<TagSummary, 'name' | 'color'> }) {
  return <span className={`tag-chip tag-${tag.color}`}>{tag.name}</span>;
}
