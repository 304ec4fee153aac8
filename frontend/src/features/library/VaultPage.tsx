import * as Dialog from '@radix-ui/react-dialog';
import * as ToggleGroup from '@radix-ui/react-toggle-group';
import { AlertCircle, FileText, LayoutGrid, List, RefreshCw, Star, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { paths } from '@/config/paths';
import { formatDate, formatDuration } from '@/lib/format';
import { showToast } from '@/lib/toast';
import { useGetTranscriptContentQuery, useGetVaultTranscriptsInfiniteQuery, type LibraryTranscript } from './libraryApi';

type View = 'list' | 'grid';
const VIEW_STORAGE_KEY = 'vaultView';

function readView(): View {
  try {
    return window.localStorage.getItem(VIEW_STORAGE_KEY) === 'grid' ? 'grid' : 'list';
  } catch {
    return 'list';
  }
}

export default function VaultPage() {
  const dispatch = useAppDispatch();
  const [view, setView] = useState<View>(readView);
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = searchParams.get('item');
  const { data, isLoading, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useGetVaultTranscriptsInfiniteQuery();
  const items = data?.pages.flatMap((page) => page.data ?? []) ?? [];
  const total = data?.pages[0]?.meta?.total ?? items.length;
  const toastShown = useRef(false);

  useEffect(() => {
    if (!isError || toastShown.current) return;
    toastShown.current = true;
    dispatch(showToast({ title: 'Error loading data', description: 'Please refresh the page.', variant: 'destructive' }));
  }, [isError, dispatch]);

  function changeView(next: string) {
    if (next !== 'list' && next !== 'grid') return;
    setView(next);
    try {
      window.localStorage.setItem(VIEW_STORAGE_KEY, next);
    } catch {
      // The choice is only remembered when storage is available.
    }
  }

  function open(id: string | null) {
    const next = new URLSearchParams(searchParams);
    if (id) next.set('item', id);
    else next.delete('item');
    setSearchParams(next, { replace: !id });
  }

  const openItem = openId ? items.find((item) => item.id === openId) : undefined;

  return (
    <div className="page">
      <PageHeader
        title="Vault"
        description="Your collected knowledge archive"
        actions={
          <ToggleGroup.Root
            type="single"
            value={view}
            onValueChange={changeView}
            className="segmented"
            aria-label="View"
          >
            <ToggleGroup.Item value="list" className="segmented-item" aria-label="List view">
              <List size={16} aria-hidden="true" /> <span>List</span>
            </ToggleGroup.Item>
            <ToggleGroup.Item value="grid" className="segmented-item" aria-label="Grid view">
              <LayoutGrid size={16} aria-hidden="true" /> <span>Grid</span>
            </ToggleGroup.Item>
          </ToggleGroup.Root>
        }
      />

      {isLoading ? (
        <div className={`vault-items ${view}`} aria-busy="true" aria-label="Loading transcripts">
          {Array.from({ length: 6 }, (_, index) => (
            <div key={index} className="card vault-card skeleton" />
          ))}
        </div>
      ) : isError ? (
        <section className="card empty-state" role="alert">
          <span className="empty-icon danger" aria-hidden="true">
            <AlertCircle size={28} />
          </span>
          <h2 className="empty-title">Error loading vault</h2>
          <p className="muted">The archive could not be loaded.</p>
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            <RefreshCw size={16} aria-hidden="true" /> Refresh Page
          </button>
        </section>
      ) : items.length === 0 ? (
        <section className="card empty-state">
          <span className="empty-icon" aria-hidden="true">
            <FileText size={28} />
          </span>
          <h2 className="empty-title">Your Vault is empty</h2>
          <p className="muted">
            Completed transcripts land here. <Link to={paths.transcripts}>Create your first transcript</Link>.
          </p>
        </section>
      ) : (
        <>
          <p className="muted vault-summary">
            {total} item{total === 1 ? '' : 's'}
          </p>
          <ul className={`vault-items ${view}`} aria-label="Transcripts">
            {items.map((item) => (
              <li key={item.id}>
                <VaultCard item={item} onOpen={() => open(item.id)} />
              </li>
            ))}
          </ul>
          {hasNextPage && (
            <div className="center">
              <button type="button" className="btn btn-outline" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                {isFetchingNextPage ? 'Loading...' : 'Load more'}
              </button>
            </div>
          )}
        </>
      )}
      {openItem && <TranscriptDialog item={openItem} onClose={() => open(null)} />}
    </div>
  );
}

function VaultCard({ item, onOpen }: { item: LibraryTranscript; onOpen: () => void }) {
  return (
    <button type="button" className="card vault-card" onClick={onOpen}>
      <span className="vault-card-icon" aria-hidden="true">
        <FileText size={20} />
      </span>
      <span className="vault-card-body">
        <span className="vault-card-title">
          {item.title}
          {item.isStarred && <Star size={14} className="star" aria-label="Starred" />}
        </span>
        <span className="vault-card-meta">
          {[item.author, formatDate(item.createdAt), item.duration ? formatDuration(item.duration) : null]
            .filter(Boolean)
            .join(' · ')}
        </span>
        <span className="vault-card-tags">
          {item.sourceType && <span className="badge badge-neutral">{item.sourceType}</span>}
          {!item.lastExported && <span className="badge badge-warning">Not Downloaded</span>}
          {(item.tags ?? []).slice(0, 4).map((tag) => (
            <span key={tag} className="tag">
              {tag}
            </span>
          ))}
        </span>
      </span>
    </button>
  );
}

function TranscriptDialog({ item, onClose }: { item: LibraryTranscript; onClose: () => void }) {
  const { data: content, isLoading, error } = useGetTranscriptContentQuery(item.id);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-lg">
          <div className="dialog-header">
            <div>
              <Dialog.Title className="dialog-title">{item.title}</Dialog.Title>
              <Dialog.Description className="muted">
                {[item.author, formatDate(item.createdAt)].filter(Boolean).join(' · ') || 'Transcript'}
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label="Close">
                <X size={18} aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          <div className="transcript-content" data-testid="transcript-content">
            {isLoading ? (
              <p className="muted" role="status">
                Loading...
              </p>
            ) : error ? (
              <p className="row-error" role="alert">
                {errorMessage(error, 'Failed to fetch transcript content')}
              </p>
            ) : content ? (
              <pre>{content}</pre>
            ) : (
              <p className="muted">This transcript has no text.</p>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
