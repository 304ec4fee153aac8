import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { showToast, useErrorToast } from '@/lib/toast';
import { libraryApi, useGetVaultTranscriptsInfiniteQuery, VAULT_ERRORS } from './libraryApi';
import {
  activeFilterCount,
  buildVaultQuery,
  EMPTY_FILTERS,
  groupByExport,
  recentSince,
  SORT_CHOICES,
  type VaultFilters,
  type VaultTab,
} from './vaultRules';

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

/** What the Vault's toolbar and results read and change: see useVaultList. */
export type VaultList = ReturnType<typeof useVaultList>;

/**
 * The Vault's list: tab, search (sent when typing pauses, or on Enter), filters and sort as one
 * query, its pages, the groups they make and the selection. `waiting` holds the first call back
 * until the user's settings are known, so the first page is asked once, with their page size.
 */
export function useVaultList(pageSize: number, waiting: boolean) {
  const selection = useSelection();
  const controls = useListControls(pageSize, selection.clear);
  const pages = useGetVaultTranscriptsInfiniteQuery(waiting ? skipToken : controls.query, { refetchOnMountOrArgChange: true });
  // While another query loads, the last list stays on screen; once it failed, it is not shown.
  const data = pages.currentData ?? (pages.isFetching ? pages.data : undefined);
  const items = useMemo(() => data?.pages.flatMap((page) => page.data) ?? [], [data]);
  const groups = useMemo(() => groupByExport(items), [items]);
  const searching = controls.query.q !== '';
  const filterCount = activeFilterCount(controls.filters);
  const loadFailed = pages.isError && !data;

  useListFailureToasts(loadFailed, pages.isFetchNextPageError, pages.error);

  return {
    ...controls,
    /** The search as sent (typing not yet sent is `searchText`). */
    q: controls.query.q,
    searching,
    filterCount,
    narrowed: searching || filterCount > 0 || controls.tab !== 'all',
    items,
    groups,
    total: data?.pages[0]?.meta?.total ?? items.length,
    totalCapped: data?.pages[0]?.meta?.totalCapped === true,
    isLoading: pages.isLoading,
    isFetching: pages.isFetching,
    isFetchingNextPage: pages.isFetchingNextPage,
    hasNextPage: pages.hasNextPage,
    fetchNextPage: pages.fetchNextPage,
    loadFailed,
    error: pages.error,
    selected: selection.selected,
    select: selection.select,
    selectAll: (on: boolean) => selection.set(on ? items.map((item) => item.id) : []),
    clearSelection: selection.clear,
  };
}

/** Tab, search, filters and sort, and the query they make. Any change clears the selection. */
function useListControls(pageSize: number, clearSelection: () => void) {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<ListState>(INITIAL_STATE);
  const [searchText, setSearchText] = useState('');
  const query = useMemo(() => buildVaultQuery(state.tab, state.since, state.q, state.filters, pageSize), [state, pageSize]);

  /**
   * Every change of tab, search or filter goes through here: the list starts again at page 1
   * (docs/product-spec.md §4), even when the query was seen before and its later pages are still cached.
   */
  function changeList(next: ListState) {
    const nextQuery = buildVaultQuery(next.tab, next.since, next.q, next.filters, pageSize);
    dispatch(
      libraryApi.util.updateQueryData('getVaultTranscripts', nextQuery, (draft) => {
        draft.pages.splice(1);
        draft.pageParams.splice(1);
      }),
    );
    clearSelection();
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

  return {
    tab: state.tab,
    filters: state.filters,
    query,
    searchText,
    setSearchText,
    /** Enter: searches at once. */
    searchNow: () => {
      if (searchText.trim() !== state.q) changeList({ ...state, q: searchText.trim() });
    },
    clearSearch: () => {
      setSearchText('');
      if (state.q) changeList({ ...state, q: '' });
    },
    selectTab: (tab: VaultTab) => {
      if (tab !== state.tab) changeList({ ...state, tab, since: tab === 'recent' ? recentSince() : null });
    },
    changeSort: (value: string) => {
      const choice = SORT_CHOICES.find((candidate) => candidate.value === value);
      if (choice) changeList({ ...state, filters: { ...state.filters, sortBy: choice.sortBy, sortOrder: choice.sortOrder } });
    },
    changeFilters: (filters: VaultFilters) => changeList({ ...state, filters }),
    clearFilters: () => changeList({ ...state, filters: EMPTY_FILTERS }),
  };
}

/** The selected items' ids. */
function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  return {
    selected,
    select: (id: string, on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    set: (ids: string[]) => setSelected(new Set(ids)),
    clear: () => setSelected(new Set()),
  };
}

/**
 * 'Error loading vault' comes with the toast of docs/product-spec.md §8, once per failure; a failed 'Load more'
 * toasts the server's message.
 */
function useListFailureToasts(loadFailed: boolean, nextPageFailed: boolean, error: unknown) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
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
    if (nextPageFailed) showError(error, VAULT_ERRORS.fetch);
  }, [nextPageFailed, error, showError]);
}
