import { valueText } from './change-values.ts';

/** One value of a changed field, shortened, with the whole value on hover. */
export function ChangedValue({ field, value, kind }: { field: string; value: unknown; kind: 'before' | 'after' }) {
  const text = valueText(field, value);
  const className = ['audit-value', `audit-${kind}`, text.empty ? 'muted' : ''].filter(Boolean).join(' ');
  return (
    <span className={className} title={text.full}>
      {text.short}
    </span>
  );
}
