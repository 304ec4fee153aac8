import * as Dialog from '@radix-ui/react-dialog';
import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * A yes/no question before something that cannot be undone (reset settings, delete a template).
 * It stays open while `busy`, so the answer of the call is seen where it was asked.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  busyLabel,
  tone = 'danger',
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  tone?: 'danger' | 'primary';
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay dialog-overlay-top" />
        <Dialog.Content className="dialog dialog-sm dialog-top">
          <div>
            <Dialog.Title className="dialog-title">{title}</Dialog.Title>
            <Dialog.Description className="muted">{description}</Dialog.Description>
          </div>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button" className="btn btn-outline" disabled={busy}>
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`} disabled={busy} onClick={onConfirm}>
              {busy && <LoaderCircle className="spin" size={16} aria-hidden="true" />}
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
