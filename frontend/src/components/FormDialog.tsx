import * as Dialog from '@radix-ui/react-dialog';
import { LoaderCircle, X, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export interface DialogShellProps {
  size: 'sm' | 'md' | 'lg';
  /** Classes after `dialog dialog-<size>`: the dialog's own layout. */
  className?: string;
  /** Opens near the top of the screen instead of its middle (questions, previews). */
  top?: boolean;
  /** The content's id, for the `aria-controls` of the button that opens it. */
  id?: string;
  testId?: string;
  /**
   * While a call is in flight: Escape, a click outside, Cancel and × do not close the dialog, so
   * the answer is seen where it was asked.
   */
  busy?: boolean;
  onClose: () => void;
  /** Where the focus goes once closed; Radix's own choice when not given. */
  onCloseAutoFocus?: (event: Event) => void;
  children: ReactNode;
}

/**
 * A modal dialog that is open as long as it is rendered (its owner renders it to open it and
 * drops it in `onClose`). For a dialog that draws its own header; `FormDialog` draws the usual one.
 */
export function DialogShell({ size, className, top = false, id, testId, busy = false, onClose, onCloseAutoFocus, children }: DialogShellProps) {
  const classes = ['dialog', `dialog-${size}`, top && 'dialog-top', className].filter(Boolean).join(' ');
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={top ? 'dialog-overlay dialog-overlay-top' : 'dialog-overlay'} />
        <Dialog.Content id={id} className={classes} data-testid={testId} onCloseAutoFocus={onCloseAutoFocus}>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The dialog of the app's forms: a title that names it (for screen readers and `getByRole('dialog',
 * { name })`), a line saying what it does and a close ×, then its content, usually a `DialogForm`,
 * or after a create the one-time secret and `DoneActions`.
 */
export function FormDialog({ title, description, children, ...shell }: DialogShellProps & { title: ReactNode; description: ReactNode }) {
  return (
    <DialogShell {...shell}>
      <div className="dialog-header">
        <div>
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          <Dialog.Description className="muted">{description}</Dialog.Description>
        </div>
        <DialogCloseButton disabled={shell.busy} />
      </div>
      {children}
    </DialogShell>
  );
}

/** The × of a dialog's header. */
export function DialogCloseButton({ label = 'Close', disabled = false }: { label?: string; disabled?: boolean }) {
  return (
    <Dialog.Close asChild>
      <button type="button" className="icon-button" aria-label={label} disabled={disabled}>
        <X size={18} aria-hidden="true" />
      </button>
    </Dialog.Close>
  );
}

/** 'Cancel': closes the dialog without doing anything (not while `busy`). */
export function CancelButton({ busy = false }: { busy?: boolean }) {
  return (
    <Dialog.Close asChild>
      <button type="button" className="btn btn-outline" disabled={busy}>
        Cancel
      </button>
    </Dialog.Close>
  );
}

/** The last step of a create that showed a one-time secret: only 'Done'. */
export function DoneActions() {
  return (
    <div className="dialog-actions">
      <Dialog.Close asChild>
        <button type="button" className="btn btn-primary">
          Done
        </button>
      </Dialog.Close>
    </div>
  );
}

export interface DialogFormProps {
  /** The server's refusal, shown at the top of the form; the dialog stays open. */
  error?: string | null;
  busy: boolean;
  submitLabel: string;
  /** What the submit button says while busy (it shows a spinner then); `submitLabel` when not given. */
  busyLabel?: string;
  submitIcon: LucideIcon;
  tone?: 'primary' | 'danger';
  className?: string;
  /** Called on submit; the browser's own submit and validation are off (fields say what is wrong). */
  onSubmit: () => void | Promise<void>;
  children: ReactNode;
}

/** A dialog's form: the server's refusal, the fields, then Cancel and the submit button. */
export function DialogForm({
  error,
  busy,
  submitLabel,
  busyLabel,
  submitIcon: SubmitIcon,
  tone = 'primary',
  className = 'dialog-form',
  onSubmit,
  children,
}: DialogFormProps) {
  return (
    <form
      className={className}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {error && (
        <div className="alert alert-error" role="alert">
          <span>{error}</span>
        </div>
      )}
      {children}
      <div className="dialog-actions">
        <CancelButton busy={busy} />
        <button type="submit" className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`} disabled={busy}>
          {busy ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <SubmitIcon size={16} aria-hidden="true" />}
          {busy ? (busyLabel ?? submitLabel) : submitLabel}
        </button>
      </div>
    </form>
  );
}
