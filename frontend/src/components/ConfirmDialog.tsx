import * as Dialog from '@radix-ui/react-dialog';
import { LoaderCircle, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { FieldError } from './Field';
import { CancelButton, DialogShell } from './FormDialog';

/**
 * A yes/no question before something that cannot be undone (reset settings, delete a template,
 * a source, a schedule or a Vault item). It stays open while `busy`, so the answer of the call is
 * seen where it was asked; `error` shows a refusal inside it. Closed, it gives the focus back to
 * what had it when it opened (the button that asked), as a `Dialog.Trigger` would.
 */
export function ConfirmDialog({
  id,
  title,
  description,
  confirmLabel,
  busyLabel,
  icon: Icon,
  tone = 'danger',
  busy,
  error,
  onConfirm,
  onClose,
}: {
  /** The dialog's id, for the `aria-controls` of the button that opens it. */
  id?: string;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  /** Shown before `confirmLabel` while not busy (busy shows a spinner). */
  icon?: LucideIcon;
  tone?: 'danger' | 'primary';
  busy: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const [openedFrom] = useState(() => document.activeElement);
  return (
    <DialogShell
      size="sm"
      top
      id={id}
      busy={busy}
      onClose={onClose}
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        if (openedFrom instanceof HTMLElement && openedFrom.isConnected) openedFrom.focus();
      }}
    >
      <div>
        <Dialog.Title className="dialog-title">{title}</Dialog.Title>
        <Dialog.Description className="muted">{description}</Dialog.Description>
      </div>
      {error && <FieldError announce>{error}</FieldError>}
      <div className="dialog-actions">
        <CancelButton busy={busy} />
        <button type="button" className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`} disabled={busy} onClick={onConfirm}>
          {busy ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : Icon && <Icon size={16} aria-hidden="true" />}
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </DialogShell>
  );
}
