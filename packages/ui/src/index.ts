export { Field } from './Field.tsx';
export { LinkForm } from './links/LinkForm.tsx';
export { LinksView } from './links/LinksView.tsx';
export { PlanUsage } from './PlanUsage.tsx';
export { type ShortlinksHost, ShortlinksProvider, useShortlinks } from './ShortlinksProvider.tsx';
export { ColourPicker, TAG_COLORS } from './tags/ColourPicker.tsx';
export { TagChip } from './tags/TagChip.tsx';
export { TagManager } from './tags/TagManager.tsx';
export { TagPicker } from './tags/TagPicker.tsx';
