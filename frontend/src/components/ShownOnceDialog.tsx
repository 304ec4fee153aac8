import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

interface ShownOnceDialogProps {
  title: ReactNode;
  /** Says what to copy and that it is shown only once. */
  description: ReactNode;
  onClose: () => void;
  /** The `CopyableSecret` and anything that explains how to use it. */
  children: ReactNode;
}

/**
 * The dialog around a secret the server shows once (a webhook's new signing secret, a feed's
 * URL). It opens as soon as it is rendered: the secret exists only in this answer, so there is
 * nothing to open later, and closing it in any way (Done, ×, Escape) calls `onClose`.
 */
export function ShownOnceDialog({ title, description, onClose, children }: ShownOnceDialogProps) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-md">
          <div className="dialog-header">
            <div>
              <Dialog.Title className="dialog-title">{title}</Dialog.Title>
              <Dialog.Description className="muted">{description}</Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label="Close">
                <X size={18} aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          {children}
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button" className="btn btn-primary">
                Done
              </button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
