import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import * as ToggleGroup from '@radix-ui/react-toggle-group';
import {
  AlertCircle,
  ChevronDown,
  ChevronRight,
  FileText,
  FileUp,
  Layers,
  LayoutGrid,
  List,
  LoaderCircle,
  MoreVertical,
  RefreshCw,
  Search,
  SlidersHorizontal,
  Tags,
  X,
} from 'lucide-react';
import { useEffect, useEffectEvent, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { errorMessage } from '@/api/errors';
import { useUserSettings } from '@/api/userSettingsApi';
import { useAppDispatch } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { paths } from '@/config/paths';
import { startLinkDownload } from '@/lib/download';
import { readString, writeString } from '@/lib/storage';
import { showToast, useErrorToast } from '@/lib/toast';
import {
  libraryApi,
  useExportTranscriptsMutation,
  useGetVaultTranscriptsInfiniteQuery,
  useInitTagsMutation,
  useProcessTranscriptsMutation,
  VAULT_ERRORS,
  type LibraryTranscript,
} from './libraryApi';
import { ExportFormatPicker, useExportFormat } from './ExportFormatPicker';
import { ImportPdfDialog } from './ImportPdfDialog';
import { VaultFiltersPanel } from './VaultFiltersPanel';
import { VaultItemCard } from './VaultItemCard';
import { VaultItemDetail } from './VaultItemDetail';
import { VaultProcessing } from './VaultProcessing';
import { VaultStats } from './VaultStats';
import {
  activeFilterCount,
  buildVaultQuery,
  EMPTY_FILTERS,
  groupByExport,
  NOT_DOWNLOADED,
  recentSince,
  rememberedView,
  SORT_CHOICES,
  sortChoiceOf,
  VAULT_TABS,
  type VaultFilters,
  type VaultGroup,
  type VaultTab,
  type VaultView,
  viewMemory,
} from './vaultRules';

const VIEW_STORAGE_KEY = 'vaultView';
/** Typing pauses this long before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

interface ListState {
  tab: VaultTab;
  /** createdAfter of the 'recent' tab, fixed when the tab is chosen so the query stays the same. */
  since: string | null;
  q: string;
  filters: VaultFilters;
}

const INITIAL_STATE: ListState = { tab: 'all', since: null, q: '', filters: EMPTY_FILTERS };

/** /vault: the archive (spec §2 and §4), its search, filters, groups, selection and detail view. */
export default function VaultPage() {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  // The user's settings choose the first view and the page size (spec §3).
  const { settings, status: settingsStatus } = useUserSettings();
  const [pickedView, setPickedView] = useState<VaultView | null>(null);
  const view = pickedView ?? rememberedView(readString('local', VIEW_STORAGE_KEY), settings.defaultView);
  const pageSize = settings.transcriptsPerPage;
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = searchParams.get('item');
  const [state, setState] = useState<ListState>(INITIAL_STATE);
  const [searchText, setSearchText] = useState('');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const filtersId = useId();
  const searchId = useId();
  const sortId = useId();
  const tabsId = useId();

  const query = useMemo(
    () => buildVaultQuery(state.tab, state.since, state.q, state.filters, pageSize),
    [state, pageSize],
  );
  // Waits for the settings, so the first page is asked once, with the user's page size.
  const {
    data: lastData,
    currentData,
    isLoading,
    isFetching,
    isError,
    error,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
    isFetchNextPageError,
  } = useGetVaultTranscriptsInfiniteQuery(settingsStatus === 'loading' ? skipToken : query, { refetchOnMountOrArgChange: true });
  // While another query loads, the last list stays on screen; once it failed, it is not shown.
  const data = currentData ?? (isFetching ? lastData : undefined);
  const items = useMemo(() => data?.pages.flatMap((page) => page.data) ?? [], [data]);
  const total = data?.pages[0]?.meta?.total ?? items.length;
  const totalCapped = data?.pages[0]?.meta?.totalCapped === true;
  const groups = useMemo(() => groupByExport(items), [items]);
  const searching = query.q !== '';
  const filterCount = activeFilterCount(state.filters);
  const narrowed = searching || filterCount > 0 || state.tab !== 'all';
  const loadFailed = isError && !data;

  /**
   * Every change of tab, search or filter goes through here: the list starts again at page 1
   * (spec §4), even when the query was seen before and its later pages are still cached.
   */
  function changeList(next: ListState) {
    const nextQuery = buildVaultQuery(next.tab, next.since, next.q, next.filters, pageSize);
    dispatch(
      libraryApi.util.updateQueryData('getVaultTranscripts', nextQuery, (draft) => {
        draft.pages.splice(1);
        draft.pageParams.splice(1);
      }),
    );
    setSelected(new Set());
    setState(next);
  }

  // The search waits until typing pauses.
  const applySearch = useEffectEvent((q: string) => {
    if (q !== state.q) changeList({ ...state, q });
  });
  useEffect(() => {
    const timer = setTimeout(() => applySearch(searchText.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  // 'Error loading vault' comes with the toast of spec §8, once per failure.
  const toastShown = useRef(false);
  useEffect(() => {
    if (!loadFailed) {
      toastShown.current = false;
      return;
    }
    if (toastShown.current) return;
    toastShown.current = true;
    dispatch(showToast({ title: 'Error loading data', description: 'Please refresh the page.', variant: 'destructive' }));
  }, [loadFailed, dispatch]);

  useEffect(() => {
    if (isFetchNextPageError) {
      showError(error, VAULT_ERRORS.fetch);
    }
  }, [isFetchNextPageError, error, showError]);

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

  function selectTab(tab: VaultTab) {
    if (tab === state.tab) return;
    changeList({ ...state, tab, since: tab === 'recent' ? recentSince() : null });
  }

  function changeSort(value: string) {
    const choice = SORT_CHOICES.find((candidate) => candidate.value === value);
    if (!choice) return;
    changeList({ ...state, filters: { ...state.filters, sortBy: choice.sortBy, sortOrder: choice.sortOrder } });
  }

  function select(id: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  const allSelected = items.length > 0 && items.every((item) => selected.has(item.id));
  const someSelected = items.some((item) => selected.has(item.id));
  const selectedItems = items.filter((item) => selected.has(item.id));

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

      <section className="card vault-toolbar" aria-label="Search and filters">
        <Tabs current={state.tab} onSelect={selectTab} idBase={tabsId} />
        <div className="vault-search-row">
          <div className="vault-search">
            <Search size={16} aria-hidden="true" className="vault-search-icon" />
            <label htmlFor={searchId} className="visually-hidden">
              Search the Vault
            </label>
            <input
              id={searchId}
              type="search"
              placeholder="Search titles and content"
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
              onKeyDown={(event) => {
                // Enter searches at once.
                if (event.key === 'Enter' && searchText.trim() !== state.q) changeList({ ...state, q: searchText.trim() });
              }}
            />
            {searchText && (
              <button
                type="button"
                className="icon-button vault-search-clear"
                aria-label="Clear search"
                onClick={() => {
                  setSearchText('');
                  if (state.q) changeList({ ...state, q: '' });
                }}
              >
                <X size={16} aria-hidden="true" />
              </button>
            )}
          </div>
          <div className="vault-sort">
            <label htmlFor={sortId} className="visually-hidden">
              Sort by
            </label>
            <select id={sortId} value={sortChoiceOf(state.filters, searching)} onChange={(event) => changeSort(event.target.value)}>
              {SORT_CHOICES.filter((choice) => searching || choice.value !== 'relevance').map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className={`btn btn-outline vault-filter-toggle${filterCount > 0 ? ' active' : ''}`}
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((isOpen) => !isOpen)}
          >
            <SlidersHorizontal size={16} aria-hidden="true" /> Filters
            {filterCount > 0 && <span className="count">{filterCount}</span>}
          </button>
        </div>
        {filtersOpen && (
          <VaultFiltersPanel
            id={filtersId}
            filters={state.filters}
            starredTab={state.tab === 'starred'}
            onChange={(filters) => changeList({ ...state, filters })}
            onClear={() => changeList({ ...state, filters: EMPTY_FILTERS })}
          />
        )}
      </section>

      <div className="vault-results" role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${state.tab}`}>
        {isLoading || settingsStatus === 'loading' ? (
          <div className={`vault-items ${view}`} aria-busy="true" aria-label="Loading transcripts">
            {Array.from({ length: 6 }, (_, index) => (
              <div key={index} className="card vault-card skeleton" />
            ))}
          </div>
        ) : loadFailed ? (
          <section className="card empty-state" role="alert">
            <span className="empty-icon danger" aria-hidden="true">
              <AlertCircle size={28} />
            </span>
            <h2 className="empty-title">Error loading vault</h2>
            <p className="muted">{errorMessage(error, VAULT_ERRORS.fetch)}</p>
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              <RefreshCw size={16} aria-hidden="true" /> Refresh Page
            </button>
          </section>
        ) : items.length === 0 && !narrowed ? (
          <section className="card empty-state">
            <span className="empty-icon" aria-hidden="true">
              <FileText size={28} />
            </span>
            <h2 className="empty-title">Your Vault is empty</h2>
            <p className="muted">
              Completed transcripts land here. <Link to={paths.transcripts}>Create your first transcript</Link>.
            </p>
          </section>
        ) : items.length === 0 ? (
          <section className="card empty-state">
            <span className="empty-icon" aria-hidden="true">
              <Search size={28} />
            </span>
            <h2 className="empty-title">{searching ? `No results for “${query.q}”` : 'No transcripts match'}</h2>
            <p className="muted">Try other words, another tab or fewer filters.</p>
            {filterCount > 0 && (
              <button type="button" className="btn btn-outline" onClick={() => changeList({ ...state, filters: EMPTY_FILTERS })}>
                <X size={16} aria-hidden="true" /> Clear filters
              </button>
            )}
          </section>
        ) : (
          <>
            <div className="vault-list-bar">
              <label className="check">
                <input
                  type="checkbox"
                  checked={allSelected}
                  ref={(element) => {
                    if (element) element.indeterminate = someSelected && !allSelected;
                  }}
                  onChange={(event) => setSelected(event.target.checked ? new Set(items.map((item) => item.id)) : new Set())}
                />
                Select all
              </label>
              <p className="muted vault-summary" aria-live="polite">
                {searching
                  ? totalCapped
                    ? `More than ${total.toLocaleString('en-US')} results for “${query.q}”: showing the newest ${total.toLocaleString('en-US')}. Add words to narrow it.`
                    : `${total} result${total === 1 ? '' : 's'} for “${query.q}”`
                  : `${total} item${total === 1 ? '' : 's'}`}
                {isFetching && !isFetchingNextPage && <LoaderCircle className="spin" size={14} aria-label="Refreshing" />}
              </p>
            </div>
            {selectedItems.length > 0 && <SelectionBar items={selectedItems} onDone={() => setSelected(new Set())} />}
            {groups.map((group) => (
              <Group
                key={group.key}
                group={group}
                view={view}
                expanded={expanded[group.key] ?? group.key === NOT_DOWNLOADED}
                onToggle={() => setExpanded((current) => ({ ...current, [group.key]: !(current[group.key] ?? group.key === NOT_DOWNLOADED) }))}
                selected={selected}
                onSelect={select}
                onOpen={open}
              />
            ))}
            {hasNextPage && (
              <div className="center">
                <button type="button" className="btn btn-outline" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                  {isFetchingNextPage && <LoaderCircle className="spin" size={16} aria-hidden="true" />}
                  {isFetchingNextPage ? 'Loading...' : 'Load more'}
                </button>
              </div>
            )}
          </>
        )}
      </div>
      {openId && <VaultItemDetail key={openId} itemId={openId} startAt={startAtParam(searchParams.get('t'))} onClose={() => open(null)} />}
      {importing && <ImportPdfDialog onClose={() => setImporting(false)} />}
    </div>
  );
}

/** The filter tabs all, recent and starred (WAI-ARIA tabs: arrows, Home and End move). */
function Tabs({ current, onSelect, idBase }: { current: VaultTab; onSelect: (tab: VaultTab) => void; idBase: string }) {
  const refs = useRef<Partial<Record<VaultTab, HTMLButtonElement | null>>>({});
  function onKeyDown(event: KeyboardEvent) {
    const index = VAULT_TABS.findIndex((tab) => tab.id === current);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: VAULT_TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const target = VAULT_TABS[(moves[event.key] + VAULT_TABS.length) % VAULT_TABS.length];
    onSelect(target.id);
    refs.current[target.id]?.focus();
  }
  return (
    <div className="tabs vault-tabs" role="tablist" aria-label="Show" onKeyDown={onKeyDown}>
      {VAULT_TABS.map(({ id, label }) => (
        <button
          key={id}
          ref={(element) => {
            refs.current[id] = element;
          }}
          type="button"
          role="tab"
          id={`${idBase}-${id}`}
          aria-controls={`${idBase}-panel`}
          className="tab"
          aria-selected={current === id}
          tabIndex={current === id ? 0 : -1}
          onClick={() => onSelect(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
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

/** Batch processing and the starter tag sets. */
function VaultMenu() {
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

/** The `t` parameter: seconds into an item's recording, or null. */
function startAtParam(value: string | null): number | null {
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}
