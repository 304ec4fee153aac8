import { ChevronDown, History, MonitorPlay, Trash2, X } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { formatDate } from '@/lib/format';
import { mostUsedSearches, recentSearches, type SearchHistoryEntry } from './searchHistory';

type Tab = 'recent' | 'most-used';
const TABS: Array<{ value: Tab; label: string }> = [
  { value: 'recent', label: 'Recently Searched' },
  { value: 'most-used', label: 'Most Used' },
];

/**
 * The collapsible 'Previous Searches' panel: tabs 'Recently Searched' and 'Most Used' (10 each),
 * a remove button per entry and 'Clear History'. Picking an entry searches it again.
 */
export function SearchHistoryPanel({
  history,
  disabled,
  onPick,
  onRemove,
  onClear,
}: {
  history: SearchHistoryEntry[];
  disabled: boolean;
  onPick: (entry: SearchHistoryEntry) => void;
  onRemove: (entry: SearchHistoryEntry) => void;
  onClear: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<Tab>('recent');
  const ids = { panel: useId(), tabs: useId() };

  if (history.length === 0) return null;
  const entries = tab === 'recent' ? recentSearches(history) : mostUsedSearches(history);

  return (
    <section className="card history-panel">
      <button
        type="button"
        className="panel-toggle"
        aria-expanded={open}
        aria-controls={ids.panel}
        onClick={() => setOpen((value) => !value)}
      >
        <History size={18} aria-hidden="true" />
        <span className="panel-toggle-label">Previous Searches</span>
        <span className="count">{history.length}</span>
        <ChevronDown size={18} aria-hidden="true" className={`chevron${open ? ' open' : ''}`} />
      </button>
      {open && (
        <div id={ids.panel} className="history-body">
          <div className="history-toolbar">
            <HistoryTabs idPrefix={ids.tabs} tab={tab} onTab={setTab} />
            <button type="button" className="btn btn-sm btn-ghost" onClick={onClear}>
              <Trash2 size={14} aria-hidden="true" /> Clear History
            </button>
          </div>
          <ul
            id={`${ids.tabs}-panel`}
            role="tabpanel"
            aria-labelledby={`${ids.tabs}-${tab}`}
            className="history-entries"
          >
            {entries.map((entry) => (
              <HistoryEntryItem key={entry.id} entry={entry} disabled={disabled} onPick={() => onPick(entry)} onRemove={() => onRemove(entry)} />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** The two tabs, with the arrow, Home and End keys of a tablist; `idPrefix` ties them to their panel. */
function HistoryTabs({ idPrefix, tab, onTab }: { idPrefix: string; tab: Tab; onTab: (tab: Tab) => void }) {
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: TABS.length - 1 - index };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const next = (index + move + TABS.length) % TABS.length;
    onTab(TABS[next].value);
    tabRefs.current[next]?.focus();
  }

  return (
    <div className="tabs" role="tablist" aria-label="Previous Searches">
      {TABS.map((item, index) => (
        <button
          key={item.value}
          ref={(element) => {
            tabRefs.current[index] = element;
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-${item.value}`}
          aria-selected={tab === item.value}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={tab === item.value ? 0 : -1}
          className="tab"
          onClick={() => onTab(item.value)}
          onKeyDown={(event) => onTabKeyDown(event, index)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

interface HistoryEntryItemProps {
  entry: SearchHistoryEntry;
  disabled: boolean;
  onPick: () => void;
  onRemove: () => void;
}

function HistoryEntryItem({ entry, disabled, onPick, onRemove }: HistoryEntryItemProps) {
  const name = entry.channelTitle || entry.channelUrl;
  return (
    <li className="history-entry" data-testid="history-entry">
      <button type="button" className="history-pick" disabled={disabled} aria-label={`Search ${name} again`} onClick={onPick}>
        <ChannelAvatar src={entry.channelThumbnail} size={36} />
        <span className="history-text">
          <span className="history-title">{name}</span>
          <span className="row-meta history-url">{entry.channelUrl}</span>
          <span className="row-meta">
            Searched {formatDate(entry.searchedAt)} · {entry.usageCount}{' '}
            {entry.usageCount === 1 ? 'search' : 'searches'}
          </span>
        </span>
      </button>
      <button type="button" className="icon-button" aria-label={`Remove ${name} from history`} onClick={onRemove}>
        <X size={16} aria-hidden="true" />
      </button>
    </li>
  );
}

/** A channel's picture, or a video icon when there is none or it does not load. */
export function ChannelAvatar({ src, size }: { src: string | null | undefined; size: number }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) {
    return (
      <span className="channel-avatar placeholder" style={{ width: size, height: size }} aria-hidden="true">
        <MonitorPlay size={Math.round(size / 2)} />
      </span>
    );
  }
  return (
    <img
      className="channel-avatar"
      src={src}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(src)}
    />
  );
}
