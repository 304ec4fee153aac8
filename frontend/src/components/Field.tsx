import { useId, type ReactNode } from 'react';

/** What a field hands its control: the label's target and the ARIA that ties the error and hint to it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  /** The control's id (the label points at it; a failed submit focuses it). */
  id: string;
  label: ReactNode;
  /** What is wrong with the value; the control is then `aria-invalid`. */
  error?: string | null;
  /**
   * Announce the error as soon as it shows (`role="alert"`), for an error that appears while the
   * focus is elsewhere. Left off where the form already announces its own refusal.
   */
  announceError?: boolean;
  hint?: ReactNode;
  /** The hint gives way to the error (it says the same rule the error breaks). */
  hideHintOnError?: boolean;
  /** Lines under the error and hint that the control does not point at (a notice, a link). */
  notes?: ReactNode;
  /** `field` plus a layout variant, e.g. `field field-inline`. */
  className?: string;
  /** The control, given its id and ARIA attributes to spread. */
  children: (control: FieldControlProps) => ReactNode;
}

/** A labelled form control with its error line and hint (`.field`, `.field-error`, `.field-hint`). */
export function Field({ id, label, error, announceError = false, hint, hideHintOnError = false, notes, className = 'field', children }: FieldProps) {
  const errorId = useId();
  const hintId = useId();
  const showHint = hint != null && !(hideHintOnError && error);
  const describedBy = [error ? errorId : null, showHint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error && (
        <FieldError id={errorId} announce={announceError}>
          {error}
        </FieldError>
      )}
      {showHint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {notes}
    </div>
  );
}

/** An error line under a control or a group of them (`announce`: `role="alert"`, see Field). */
export function FieldError({ id, announce = false, children }: { id?: string; announce?: boolean; children: ReactNode }) {
  return (
    <p id={id} className="field-error" role={announce ? 'alert' : undefined}>
      {children}
    </p>
  );
}
