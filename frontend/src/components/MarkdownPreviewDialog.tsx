import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { MarkdownContent } from './MarkdownContent';

/**
 * A converted file, rendered (sanitised markdown, see MarkdownContent) before it is saved or
 * downloaded. `actions` sits under the title (a download button, say).
 */
export function MarkdownPreviewDialog({
  title,
  subtitle,
  content,
  actions,
  onClose,
}: {
  title: string;
  subtitle?: string;
  content: string;
  actions?: ReactNode;
  onClose: () => void;
}) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay dialog-overlay-top" />
        <Dialog.Content className="dialog dialog-lg dialog-top markdown-preview" data-testid="markdown-preview">
          <div className="dialog-header">
            <div className="vault-detail-heading">
              <Dialog.Title className="dialog-title">{title}</Dialog.Title>
              <Dialog.Description className="muted">{subtitle ?? 'Preview of the markdown'}</Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label="Close preview">
                <X size={18} aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          <div className="markdown-preview-body">
            {actions && <div className="button-row">{actions}</div>}
            <div className="transcript-content">
              {content.trim() ? <MarkdownContent content={content} /> : <p className="muted">This file has no text.</p>}
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
