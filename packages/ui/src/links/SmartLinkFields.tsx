/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { LIMITS } from '@shortlinks/contract/rules';
import { TextField } from '../Field.tsx';
import type { RuleDraft, SmartDraft } from './smart-draft.ts';

/**
 * A link's password, click limit, redirect rules and social preview (issue #30), folded away until
 * set or in error: the New link form and Edit (the dashboard and the extension) show the same.
 */
export function SmartLinkFields({
  smart,
  passwordProtected,
  errors,
  onChange,
}: {
  smart: SmartDraft;
  /** The link has a password now (Edit): the box then sets a new one. */
  passwordProtected: boolean;
  errors: { password?: string | undefined; max_clicks?: string | undefined; rules?: string | undefined; preview?: string | undefined };
  onChange: (smart: SmartDraft) => void;
}) {
  const set = (patch: Partial<SmartDraft>) => onChange({ ...smart, ...patch });
  const setRule = (index: number, patch: Partial<RuleDraft>) =>
    set({ rules: smart.rules.map((rule, at) => (at === index ? { ...rule, ...patch } : rule)) });
  const inError = Boolean(errors.password || errors.max_clicks || errors.rules || errors.preview);
  const open = inError || passwordProtected || smart.maxClicks !== '' || smart.rules.length > 0 || smart.previewTitle !== '';
  return (
    <>
      <details open={open}>
        <summary>Password and click limit</summary>
        <div className="grid-2">
          <TextField
            label={passwordProtected ? 'New password' : 'Password'}
            hint={
              passwordProtected
                ? 'The link is password-protected. Empty keeps the password.'
                : `${LIMITS.passwordMinChars} to ${LIMITS.passwordMaxChars} characters. Visitors must give it first.`
            }
            error={errors.password}
            type="password"
            autoComplete="new-password"
            name="password"
            value={smart.password}
            disabled={smart.removePassword}
            onValueChange={(password) => set({ password })}
          />
          <TextField
            label="Click limit"
            hint="After this many visits the link behaves as expired. Empty: no limit."
            error={errors.max_clicks}
            type="number"
            inputMode="numeric"
            min={1}
            name="max_clicks"
            value={smart.maxClicks}
            onValueChange={(maxClicks) => set({ maxClicks })}
          />
        </div>
        {passwordProtected ? (
          <label className="row">
            <input
              type="checkbox"
              name="remove_password"
              checked={smart.removePassword}
              onChange={(event) => set({ removePassword: event.target.checked, password: '' })}
            />
            Remove the password
          </label>
        ) : null}
      </details>
      <details open={inError || smart.rules.length > 0}>
        <summary>Redirect rules</summary>
        <fieldset className={errors.rules ? 'field invalid rules' : 'field rules'}>
          <legend className="label">Rules</legend>
          {smart.rules.map((rule, index) => (
            <div className="row rule" key={index}>
              <input
                aria-label={`Rule ${index + 1} conditions`}
                aria-invalid={Boolean(errors.rules) && index === 0}
                name={`rules[${index}].if`}
                placeholder="device=mobile, country=DE"
                value={rule.conditions}
                onChange={(event) => setRule(index, { conditions: event.target.value })}
              />
              <input
                aria-label={`Rule ${index + 1} address`}
                name={`rules[${index}].destination_url`}
                type="url"
                inputMode="url"
                placeholder="https://…"
                value={rule.destination}
                onChange={(event) => setRule(index, { destination: event.target.value })}
              />
              <button type="button" className="button small" onClick={() => set({ rules: smart.rules.filter((_, at) => at !== index) })}>
                Remove
              </button>
            </div>
          ))}
          {smart.rules.length < LIMITS.rulesPerLink ? (
            <button
              type="button"
              className="button small"
              onClick={() => set({ rules: [...smart.rules, { conditions: '', destination: '' }] })}
            >
              Add rule
            </button>
          ) : null}
          {errors.rules ? (
            <span className="error" role="alert" data-form-error tabIndex={-1}>
              {errors.rules}
            </span>
          ) : (
            <span className="hint">
              Checked in order; the first whose conditions all hold sends the visitor to its address. Conditions, separated by commas:
              device=mobile|desktop|tablet, os=iOS, browser=Chrome, country=DE, language=fr, query.NAME=VALUE, after=2026-12-01T09:00,
              before=….
            </span>
          )}
        </fieldset>
      </details>
      <details open={inError || smart.previewTitle !== '' || smart.previewDescription !== '' || smart.previewImage !== ''}>
        <summary>Social preview</summary>
        <p className="hint">What Slack, X, Facebook, LinkedIn, WhatsApp and other link previews show.</p>
        <TextField
          label="Preview headline"
          error={errors.preview}
          name="preview_title"
          value={smart.previewTitle}
          onValueChange={(previewTitle) => set({ previewTitle })}
        />
        <TextField
          label="Preview description"
          name="preview_description"
          value={smart.previewDescription}
          onValueChange={(previewDescription) => set({ previewDescription })}
        />
        <TextField
          label="Preview image"
          type="url"
          inputMode="url"
          placeholder="https://…"
          name="preview_image_url"
          value={smart.previewImage}
          onValueChange={(previewImage) => set({ previewImage })}
        />
      </details>
    </>
  );
}
