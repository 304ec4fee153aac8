import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Layers, LoaderCircle, MoreVertical, Tags } from 'lucide-react';
import { useAppDispatch } from '@/app/hooks';
import { showToast, useErrorToast } from '@/lib/toast';
import { useInitTagsMutation, useProcessTranscriptsMutation, VAULT_ERRORS } from './libraryApi';

/** Batch processing and the starter tag sets. */
export function VaultMenu() {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [processTranscripts, { isLoading: processing }] = useProcessTranscriptsMutation();
  const [initTags, { isLoading: initialising }] = useInitTagsMutation();
  const busy = processing || initialising;

  async function process() {
    try {
      const { processed, remaining } = await processTranscripts().unwrap();
      dispatch(
        showToast({
          title: 'Transcripts processed',
          description: `${processed} processed, ${remaining} remaining`,
          variant: 'success',
        }),
      );
    } catch (failure) {
      showError(failure, VAULT_ERRORS.process);
    }
  }

  async function addTags(kind: 'starter' | 'gwth') {
    try {
      const { created } = await initTags(kind).unwrap();
      dispatch(
        showToast({
          title: kind === 'gwth' ? 'Growth-level tags added' : 'Starter tags added',
          description: `${created} new ${created === 1 ? 'tag' : 'tags'}`,
          variant: 'success',
        }),
      );
    } catch (failure) {
      showError(failure, 'Failed to add the tags');
    }
  }

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="btn btn-outline vault-menu-button" aria-label="More actions" disabled={busy}>
          {busy ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <MoreVertical size={16} aria-hidden="true" />}
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Item className="menu-item" onSelect={() => void process()}>
            <Layers size={16} aria-hidden="true" /> Process transcripts
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => void addTags('starter')}>
            <Tags size={16} aria-hidden="true" /> Add starter tags
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => void addTags('gwth')}>
            <Tags size={16} aria-hidden="true" /> Add growth-level tags
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
