/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { StatsInterval } from '@shortlinks/client';
import { type FormEvent, useId, useState } from 'react';
import { TextField } from '../Field.tsx';
import { localIsoDate } from './calendar.ts';
import {
  customDatesOf,
  hourlyAllowed,
  type PresetId,
  RANGE_LIMITS,
  RANGE_PRESETS,
  type RangeChoice,
  resolveRange,
  type StatsWindow,
} from './range.ts';

/**
 * The range (a preset or two dates) and the interval. A custom range is applied with its button,
 * not on every keystroke in a date box; a range the API cannot answer is explained at its field.
 * Hourly is offered only up to the API's 31 days; a longer range is shown by day, and says so.
 */
export function RangePicker({
  choice,
  window,
  now,
  onChange,
}: {
  choice: RangeChoice;
  window: StatsWindow;
  now: number;
  onChange(choice: RangeChoice): void;
}) {
  const name = useId();
  const [editingCustom, setEditingCustom] = useState(choice.kind === 'custom');
  const [dates, setDates] = useState(() =>
    choice.kind === 'custom' ? { from: choice.from, to: choice.to } : customDatesOf(window, window.tz),
  );
  const [error, setError] = useState<{ field: 'from' | 'to'; message: string }>();
  const selected: PresetId | 'custom' = editingCustom ? 'custom' : choice.kind === 'preset' ? choice.preset : 'custom';
  const hourly = hourlyAllowed(window.start, window.end);
  const today = localIsoDate(now, window.tz);

  const pickInterval = (interval: StatsInterval) => onChange({ ...choice, interval });
  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    const next: RangeChoice = { kind: 'custom', ...dates, interval: choice.interval };
    const resolved = resolveRange(next, now, window.tz);
    if (!resolved.ok) {
      setError({ field: resolved.field, message: resolved.message });
      return;
    }
    setError(undefined);
    onChange(next);
  };

  return (
    <div className="analytics-controls">
      <div className="row" style={{ flexWrap: 'wrap', gap: 8 }}>
        <fieldset className="segmented">
          <legend className="visually-hidden">Range</legend>
          {RANGE_PRESETS.map((preset) => (
            <label key={preset.id} className="segment">
              <input
                type="radio"
                name={`${name}-range`}
                checked={selected === preset.id}
                onChange={() => {
                  setEditingCustom(false);
                  setError(undefined);
                  onChange({ kind: 'preset', preset: preset.id, interval: preset.interval });
                }}
              />
              {preset.label}
            </label>
          ))}
          <label className="segment">
            <input
              type="radio"
              name={`${name}-range`}
              checked={selected === 'custom'}
              onChange={() => {
                setDates(customDatesOf(window, window.tz));
                setEditingCustom(true);
              }}
            />
            Custom
          </label>
        </fieldset>
        <fieldset className="segmented">
          <legend className="visually-hidden">Interval</legend>
          <label className="segment" data-disabled={!hourly}>
            <input
              type="radio"
              name={`${name}-interval`}
              checked={window.interval === 'hour'}
              disabled={!hourly}
              onChange={() => pickInterval('hour')}
            />
            Hourly
          </label>
          <label className="segment">
            <input type="radio" name={`${name}-interval`} checked={window.interval === 'day'} onChange={() => pickInterval('day')} />
            Daily
          </label>
        </fieldset>
        {hourly ? null : (
          <span className="muted analytics-hint" role="status">
            {window.dailyBecauseLong ? 'Shown by day: ' : 'By day: '}hours are available for ranges up to {RANGE_LIMITS.maxHourDays} days.
          </span>
        )}
      </div>
      {selected === 'custom' ? (
        <form className="custom-range" onSubmit={applyCustom} aria-label="Custom range" noValidate>
          {(['from', 'to'] as const).map((end) => (
            <TextField
              key={end}
              label={end === 'from' ? 'From' : 'To'}
              error={error?.field === end ? error.message : undefined}
              type="date"
              min="1970-01-01"
              max={today}
              value={dates[end]}
              onValueChange={(value) => setDates({ ...dates, [end]: value })}
            />
          ))}
          <button type="submit" className="button primary">
            Apply
          </button>
          <span className="muted analytics-hint">Up to {RANGE_LIMITS.maxDayDays} days, both dates included.</span>
        </form>
      ) : null}
    </div>
  );
}
