import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { DialogCloseButton, DialogShell } from './FormDialog';
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
    <DialogShell size="lg" top className="markdown-preview" testId="markdown-preview" onClose={onClose}>
      <div className="dialog-header">
        <div className="vault-detail-heading">
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          <Dialog.Description className="muted">{subtitle ?? 'Preview of the markdown'}</Dialog.Description>
        </div>
        <DialogCloseButton label="Close preview" />
      </div>
      <div className="markdown-preview-body">
        {actions && <div className="button-row">{actions}</div>}
        <div className="transcript-content">
          {content.trim() ? <MarkdownContent content={content} /> : <p className="muted">This file has no text.</p>}
        </div>
      </div>
    </DialogShell>
  );
}
