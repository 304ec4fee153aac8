import * as ToggleGroup from '@radix-ui/react-toggle-group';
import { FileUp, LayoutGrid, List } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useUserSettings } from '@/api/userSettingsApi';
import { PageHeader } from '@/components/PageHeader';
import { readString, writeString } from '@/lib/storage';
import { ImportPdfDialog } from './ImportPdfDialog';
import { useVaultList } from './useVaultList';
import { VaultItemDetail } from './VaultItemDetail';
import { VaultMenu } from './VaultMenu';
import { VaultProcessing } from './VaultProcessing';
import { VaultResults } from './VaultResults';
import { VaultStats } from './VaultStats';
import { VaultToolbar } from './VaultToolbar';
import { rememberedView, type VaultView, viewMemory } from './vaultRules';

const VIEW_STORAGE_KEY = 'vaultView';

/** /vault: the archive (docs/product-spec.md §2 and §4), its search, filters, groups, selection and detail view. */
export default function VaultPage() {
  // The user's settings choose the first view and the page size (docs/product-spec.md §3).
  const { settings, status: settingsStatus } = useUserSettings();
  const [pickedView, setPickedView] = useState<VaultView | null>(null);
  const view = pickedView ?? rememberedView(readString('local', VIEW_STORAGE_KEY), settings.defaultView);
  const list = useVaultList(settings.transcriptsPerPage, settingsStatus === 'loading');
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = searchParams.get('item');
  const [importing, setImporting] = useState(false);
  const tabsId = useId();

  function changeView(next: string) {
    if (next !== 'list' && next !== 'grid') return;
    setPickedView(next);
    writeString('local', VIEW_STORAGE_KEY, viewMemory(next, settings.defaultView));
  }

  /** Opens an item (`at`: a search hit's time, where its recording starts playing) or closes it. */
  function open(id: string | null, at?: number) {
    const next = new URLSearchParams(searchParams);
    if (id) next.set('item', id);
    else next.delete('item');
    if (id && at != null) next.set('t', String(at));
    else next.delete('t');
    void setSearchParams(next, { replace: !id });
  }

  return (
    <div className="page vault-page">
      <PageHeader
        title="Vault"
        description="Your collected knowledge archive"
        actions={
          <>
            <ToggleGroup.Root type="single" value={view} onValueChange={changeView} className="segmented" aria-label="View">
              <ToggleGroup.Item value="list" className="segmented-item" aria-label="List view">
                <List size={16} aria-hidden="true" /> <span>List</span>
              </ToggleGroup.Item>
              <ToggleGroup.Item value="grid" className="segmented-item" aria-label="Grid view">
                <LayoutGrid size={16} aria-hidden="true" /> <span>Grid</span>
              </ToggleGroup.Item>
            </ToggleGroup.Root>
            <button type="button" className="btn btn-outline" onClick={() => setImporting(true)}>
              <FileUp size={16} aria-hidden="true" /> Import PDF
            </button>
            <VaultMenu />
          </>
        }
      />

      <VaultStats />

      <VaultProcessing />

      <VaultToolbar list={list} tabsId={tabsId} />

      <VaultResults list={list} view={view} loading={list.isLoading || settingsStatus === 'loading'} tabsId={tabsId} onOpen={open} />
      {openId && <VaultItemDetail key={openId} itemId={openId} startAt={startAtParam(searchParams.get('t'))} onClose={() => open(null)} />}
      {importing && <ImportPdfDialog onClose={() => setImporting(false)} />}
    </div>
  );
}

/** The `t` parameter: seconds into an item's recording, or null. */
function startAtParam(value: string | null): number | null {
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}
