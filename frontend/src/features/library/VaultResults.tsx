import { AlertCircle, ChevronDown, ChevronRight, FileText, LoaderCircle, RefreshCw, Search, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { startLinkDownload } from '@/lib/download';
import { showToast } from '@/lib/toast';
import { useExportTranscriptsMutation, VAULT_ERRORS, type LibraryTranscript } from './libraryApi';
import { ExportFormatPicker, useExportFormat } from './ExportFormatPicker';
import type { VaultList } from './useVaultList';
import { VaultItemCard } from './VaultItemCard';
import { NOT_DOWNLOADED, type VaultGroup, type VaultView } from './vaultRules';

interface VaultResultsProps {
  list: VaultList;
  view: VaultView;
  /** The list, or the settings it waits for, is loading: skeleton cards. */
  loading: boolean;
  /** The id base of the toolbar's tabs, which this panel belongs to. */
  tabsId: string;
  onOpen: (id: string, at?: number) => void;
}

/** The tabpanel under the toolbar: loading, failed, empty, or the grouped items with their selection. */
export function VaultResults({ list, view, loading, tabsId, onOpen }: VaultResultsProps) {
  // Which groups are open outlives a search that finds nothing; 'Not Downloaded' starts open.
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const isExpanded = (key: string) => expanded[key] ?? key === NOT_DOWNLOADED;
  const toggle = (key: string) => setExpanded((current) => ({ ...current, [key]: !(current[key] ?? key === NOT_DOWNLOADED) }));
  return (
    <div className="vault-results" role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${list.tab}`}>
      {loading ? (
        <div className={`vault-items ${view}`} aria-busy="true" aria-label="Loading transcripts">
          {Array.from({ length: 6 }, (_, index) => (
            <div key={index} className="card vault-card skeleton" />
          ))}
        </div>
      ) : list.loadFailed ? (
        <section className="card empty-state" role="alert">
          <span className="empty-icon danger" aria-hidden="true">
            <AlertCircle size={28} />
          </span>
          <h2 className="empty-title">Error loading vault</h2>
          <p className="muted">{errorMessage(list.error, VAULT_ERRORS.fetch)}</p>
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            <RefreshCw size={16} aria-hidden="true" /> Refresh Page
          </button>
        </section>
      ) : list.items.length === 0 ? (
        <NoItems list={list} />
      ) : (
        <ItemList list={list} view={view} isExpanded={isExpanded} onToggle={toggle} onOpen={onOpen} />
      )}
    </div>
  );
}

/** An empty Vault says where items come from; an empty search, tab or filter says how to widen it. */
function NoItems({ list }: { list: VaultList }) {
  if (!list.narrowed) {
    return (
      <section className="card empty-state">
        <span className="empty-icon" aria-hidden="true">
          <FileText size={28} />
        </span>
        <h2 className="empty-title">Your Vault is empty</h2>
        <p className="muted">
          Completed transcripts land here. <Link to={paths.transcripts}>Create your first transcript</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="card empty-state">
      <span className="empty-icon" aria-hidden="true">
        <Search size={28} />
      </span>
      <h2 className="empty-title">{list.searching ? `No results for “${list.q}”` : 'No transcripts match'}</h2>
      <p className="muted">Try other words, another tab or fewer filters.</p>
      {list.filterCount > 0 && (
        <button type="button" className="btn btn-outline" onClick={list.clearFilters}>
          <X size={16} aria-hidden="true" /> Clear filters
        </button>
      )}
    </section>
  );
}

/** Select all and the count, the selection's bar, the export groups, and Load more. */
function ItemList({
  list,
  view,
  isExpanded,
  onToggle,
  onOpen,
}: {
  list: VaultList;
  view: VaultView;
  isExpanded: (groupKey: string) => boolean;
  onToggle: (groupKey: string) => void;
  onOpen: (id: string, at?: number) => void;
}) {
  const { items, selected } = list;
  const allSelected = items.length > 0 && items.every((item) => selected.has(item.id));
  const someSelected = items.some((item) => selected.has(item.id));
  const selectedItems = items.filter((item) => selected.has(item.id));
  return (
    <>
      <div className="vault-list-bar">
        <label className="check">
          <input
            type="checkbox"
            checked={allSelected}
            ref={(element) => {
              if (element) element.indeterminate = someSelected && !allSelected;
            }}
            onChange={(event) => list.selectAll(event.target.checked)}
          />
          Select all
        </label>
        <p className="muted vault-summary" aria-live="polite">
          {listSummary(list)}
          {list.isFetching && !list.isFetchingNextPage && <LoaderCircle className="spin" size={14} aria-label="Refreshing" />}
        </p>
      </div>
      {selectedItems.length > 0 && <SelectionBar items={selectedItems} onDone={list.clearSelection} />}
      {list.groups.map((group) => (
        <Group
          key={group.key}
          group={group}
          view={view}
          expanded={isExpanded(group.key)}
          onToggle={() => onToggle(group.key)}
          selected={selected}
          onSelect={list.select}
          onOpen={onOpen}
        />
      ))}
      {list.hasNextPage && (
        <div className="center">
          <button type="button" className="btn btn-outline" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {list.isFetchingNextPage && <LoaderCircle className="spin" size={16} aria-hidden="true" />}
            {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </button>
        </div>
      )}
    </>
  );
}

/** "12 items", "3 results for “garden”", or how a capped search was cut. */
function listSummary({ searching, totalCapped, total, q }: VaultList): string {
  if (!searching) return `${total} item${total === 1 ? '' : 's'}`;
  if (totalCapped) {
    return `More than ${total.toLocaleString('en-US')} results for “${q}”: showing the newest ${total.toLocaleString('en-US')}. Add words to narrow it.`;
  }
  return `${total} result${total === 1 ? '' : 's'} for “${q}”`;
}

function Group({
  group,
  view,
  expanded,
  onToggle,
  selected,
  onSelect,
  onOpen,
}: {
  group: VaultGroup;
  view: VaultView;
  expanded: boolean;
  onToggle: () => void;
  selected: ReadonlySet<string>;
  onSelect: (id: string, on: boolean) => void;
  onOpen: (id: string, at?: number) => void;
}) {
  const listId = useId();
  const Chevron = expanded ? ChevronDown : ChevronRight;
  return (
    <section className="vault-group" aria-label={group.title} data-testid="vault-group" data-group={group.key}>
      <h2 className="vault-group-title">
        <button type="button" className="vault-group-toggle" aria-expanded={expanded} aria-controls={listId} onClick={onToggle}>
          <Chevron size={18} aria-hidden="true" />
          {group.title}
          <span className="count">{group.items.length}</span>
        </button>
      </h2>
      {expanded && (
        <ul id={listId} className={`vault-items ${view}`} aria-label={group.title}>
          {group.items.map((item) => (
            <li key={item.id}>
              <VaultItemCard item={item} selected={selected.has(item.id)} onSelect={(on) => onSelect(item.id, on)} onOpen={(at) => onOpen(item.id, at)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What to do with the selected items: one zip in a chosen format. */
function SelectionBar({ items, onDone }: { items: LibraryTranscript[]; onDone: () => void }) {
  const dispatch = useAppDispatch();
  const { formats, format, choose } = useExportFormat(items.map((item) => item.sourceType));
  const [exportTranscripts, { isLoading }] = useExportTranscriptsMutation();

  async function run() {
    try {
      const { downloadUrl, filename } = await exportTranscripts({ ids: items.map((item) => item.id), format }).unwrap();
      startLinkDownload(downloadUrl, filename);
      dispatch(showToast({ title: 'Download started', description: filename, variant: 'success' }));
      onDone();
    } catch (failure) {
      dispatch(
        showToast({
          title: VAULT_ERRORS.exportSelected,
          description: errorMessage(failure, VAULT_ERRORS.bulkExport),
          variant: 'destructive',
        }),
      );
    }
  }

  return (
    <div className="selection-bar" role="region" aria-label="Selection">
      <span className="selection-count">{items.length} selected</span>
      <ExportFormatPicker
        label="Format of the selection"
        formats={formats}
        format={format}
        onChoose={choose}
        buttonLabel="Export selected"
        busy={isLoading}
        onExport={() => void run()}
      />
      <button type="button" className="btn btn-sm btn-ghost" onClick={onDone}>
        Clear selection
      </button>
    </div>
  );
}
