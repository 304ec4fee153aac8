import * as Dialog from '@radix-ui/react-dialog';
import { LoaderCircle, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';

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
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay dialog-overlay-top" />
        <Dialog.Content
          id={id}
          className="dialog dialog-sm dialog-top"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (openedFrom instanceof HTMLElement && openedFrom.isConnected) openedFrom.focus();
          }}
        >
          <div>
            <Dialog.Title className="dialog-title">{title}</Dialog.Title>
            <Dialog.Description className="muted">{description}</Dialog.Description>
          </div>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button" className="btn btn-outline" disabled={busy}>
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`} disabled={busy} onClick={onConfirm}>
              {busy ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : Icon && <Icon size={16} aria-hidden="true" />}
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
