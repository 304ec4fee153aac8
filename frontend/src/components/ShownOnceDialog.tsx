import type { ReactNode } from 'react';
import { DoneActions, FormDialog } from './FormDialog';

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
    <FormDialog size="md" title={title} description={description} onClose={onClose}>
      {children}
      <DoneActions />
    </FormDialog>
  );
}
