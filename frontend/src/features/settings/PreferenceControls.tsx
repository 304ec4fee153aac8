import type { LucideIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { PAGE_SIZES, type PageSize } from '@/api/userSettingsApi';
import { coerceWholeNumber, isWholeNumberWithin } from './preferencesForm';

// The controls of the Preferences tab (PreferencesPanel.tsx): a card, radios, a select, a switch, a number.

/** One card of the Preferences tab: an icon and title (the region's name), a line saying what it holds. */
export function SettingsCard({ title, description, icon: Icon, children }: { title: string; description: string; icon: LucideIcon; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="card settings-card" aria-labelledby={headingId}>
      <div className="card-header">
        <div>
          <h2 id={headingId} className="card-title">
            <Icon size={18} aria-hidden="true" /> {title}
          </h2>
          <p className="muted card-description">{description}</p>
        </div>
      </div>
      <div className="card-body settings-card-body">{children}</div>
    </section>
  );
}

/** Radio buttons drawn as a segmented control; one fieldset, its legend the accessible name. */
export function ChoiceGroup<T extends string>({
  legend,
  hint,
  name,
  value,
  choices,
  onChange,
}: {
  legend: string;
  hint?: string;
  name: string;
  value: T;
  choices: ReadonlyArray<{ value: T; label: string; icon: LucideIcon }>;
  onChange: (value: T) => void;
}) {
  const baseId = useId();
  return (
    <fieldset className="choice-group" aria-describedby={hint ? `${baseId}-hint` : undefined}>
      <legend>{legend}</legend>
      <div className="segmented">
        {choices.map(({ value: choice, label, icon: Icon }) => (
          <label key={choice} className="segmented-item" data-state={value === choice ? 'on' : 'off'}>
            <input
              type="radio"
              className="visually-hidden"
              name={`${baseId}-${name}`}
              value={choice}
              checked={value === choice}
              onChange={() => onChange(choice)}
            />
            <Icon size={16} aria-hidden="true" /> {label}
          </label>
        ))}
      </div>
      {hint && (
        <p id={`${baseId}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </fieldset>
  );
}

export function PageSizeField({ value, onChange }: { value: PageSize; onChange: (value: PageSize) => void }) {
  const id = useId();
  return (
    <div className="field field-inline">
      <label htmlFor={id}>Items per page</label>
      <select id={id} value={value} onChange={(event) => onChange(Number(event.target.value) as PageSize)}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A checkbox shown as a switch (role=switch), with its label and a line saying what it does. */
export function SwitchRow({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="switch-row">
      <div>
        <label htmlFor={id} className="switch-label">
          {label}
        </label>
        <p id={`${id}-description`} className="field-hint">
          {description}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        aria-describedby={`${id}-description`}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}

/**
 * A bounded whole number (docs/product-spec.md §5). What is typed shows as typed; a valid number is taken at
 * once, and anything else is settled when the field is left (or Enter is pressed): not a number
 * becomes 1, and numbers are kept within the limits.
 */
export function NumberField({
  label,
  hint,
  value,
  limits,
  onChange,
}: {
  label: string;
  hint: string;
  value: number;
  limits: { min: number; max: number };
  onChange: (value: number) => void;
}) {
  const id = useId();
  const [text, setText] = useState<string | null>(null);

  function commit() {
    if (text === null) return;
    const settled = coerceWholeNumber(text, limits);
    setText(null);
    if (settled !== value) onChange(settled);
  }

  return (
    <div className="field field-number">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={text ?? String(value)}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setText(event.target.value);
          if (isWholeNumberWithin(event.target.value, limits)) onChange(Number(event.target.value));
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
    </div>
  );
}
