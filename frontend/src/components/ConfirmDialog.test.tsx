import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';

/** A button that opens the dialog, as the delete buttons of the app do. */
function Asker({ busy = false, error = null, onConfirm = () => {} }: { busy?: boolean; error?: string | null; onConfirm?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete item
      </button>
      {open && (
        <ConfirmDialog
          title="Delete item?"
          description="It cannot be undone."
          confirmLabel="Delete"
          busyLabel="Deleting..."
          icon={Trash2}
          busy={busy}
          error={error}
          onConfirm={onConfirm}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

describe('ConfirmDialog', () => {
  it('asks with its title, description, Cancel and the confirm label after its icon', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<Asker onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Delete item' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete item?' });
    expect(dialog).toHaveAccessibleDescription('It cannot be undone.');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toHaveClass('btn-danger');
    expect(confirm.querySelector('svg.lucide-trash2, svg.lucide-trash-2')).not.toBeNull();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('gives the focus back to the button that opened it when closed', async () => {
    const user = userEvent.setup();
    render(<Asker />);
    const opener = screen.getByRole('button', { name: 'Delete item' });
    await user.click(opener);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('shows a refusal as an alert, and while busy a disabled busy label that Escape does not close', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<Asker error="Failed to delete item" />);
    await user.click(screen.getByRole('button', { name: 'Delete item' }));
    expect(within(screen.getByRole('dialog')).getByRole('alert')).toHaveTextContent('Failed to delete item');
    rerender(<Asker busy error={null} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete item?' });
    expect(within(dialog).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Delete item?' })).toBeInTheDocument();
  });
});
