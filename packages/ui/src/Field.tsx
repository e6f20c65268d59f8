/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

interface FieldFrame {
  label: string;
  /** The label is still read by screen readers, but not shown (the context shows what it is). */
  hideLabel?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
}

/**
 * A labelled form field with its error underneath. The input is given the id, `aria-invalid`
 * and `aria-describedby` through the render function, so screen readers read the error too.
 */
export function Field({
  label,
  error,
  hint,
  hideLabel = false,
  children,
}: FieldFrame & {
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label className={hideLabel ? 'label visually-hidden' : 'label'} htmlFor={id}>
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), ...(error || hint ? { 'aria-describedby': messageId } : {}) })}
      {error ? (
        <span className="error" id={messageId} role="alert">
          {error}
        </span>
      ) : hint ? (
        <span className="hint" id={messageId}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'aria-invalid' | 'aria-describedby'>;

/** A `Field` holding one text input (or url, password, date…): the shape most fields have. */
export function TextField({
  label,
  error,
  hint,
  hideLabel,
  value,
  onValueChange,
  ...input
}: FieldFrame & InputAttributes & { value: string; onValueChange: (value: string) => void }) {
  return (
    <Field label={label} error={error} hint={hint} {...(hideLabel ? { hideLabel } : {})}>
      {(props) => <input {...input} {...props} value={value} onChange={(event) => onValueChange(event.target.value)} />}
    </Field>
  );
}
