import { Search, SlidersHorizontal, X } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { VaultList } from './useVaultList';
import { VaultFiltersPanel } from './VaultFiltersPanel';
import { SORT_CHOICES, sortChoiceOf, VAULT_TABS, type VaultTab } from './vaultRules';

/**
 * The Vault's tabs, search box, sort and the Filters toggle with its panel. `tabsId` names the
 * tabs and the results' tabpanel they control.
 */
export function VaultToolbar({ list, tabsId }: { list: VaultList; tabsId: string }) {
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const { filterCount } = list;
  return (
    <section className="card vault-toolbar" aria-label="Search and filters">
      <Tabs current={list.tab} onSelect={list.selectTab} idBase={tabsId} />
      <div className="vault-search-row">
        <SearchBox list={list} />
        <SortPicker list={list} />
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
          filters={list.filters}
          starredTab={list.tab === 'starred'}
          onChange={list.changeFilters}
          onClear={list.clearFilters}
        />
      )}
    </section>
  );
}

/** Sent when typing pauses or on Enter; × empties it. */
function SearchBox({ list }: { list: VaultList }) {
  const searchId = useId();
  return (
    <div className="vault-search">
      <Search size={16} aria-hidden="true" className="vault-search-icon" />
      <label htmlFor={searchId} className="visually-hidden">
        Search the Vault
      </label>
      <input
        id={searchId}
        type="search"
        placeholder="Search titles and content"
        value={list.searchText}
        onChange={(event) => list.setSearchText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') list.searchNow();
        }}
      />
      {list.searchText && (
        <button type="button" className="icon-button vault-search-clear" aria-label="Clear search" onClick={list.clearSearch}>
          <X size={16} aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

/** 'Relevance' is a choice only while searching. */
function SortPicker({ list }: { list: VaultList }) {
  const sortId = useId();
  return (
    <div className="vault-sort">
      <label htmlFor={sortId} className="visually-hidden">
        Sort by
      </label>
      <select id={sortId} value={sortChoiceOf(list.filters, list.searching)} onChange={(event) => list.changeSort(event.target.value)}>
        {SORT_CHOICES.filter((choice) => list.searching || choice.value !== 'relevance').map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
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
