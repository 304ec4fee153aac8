import * as Dialog from '@radix-ui/react-dialog';
import { LoaderCircle, Plus, RotateCw, Rss, Trash2, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '@/api/errors';
import {
  useCreatePodcastFeedMutation,
  useListFeedTagsQuery,
  useListPodcastFeedsQuery,
  useRevokePodcastFeedMutation,
  useRotatePodcastFeedMutation,
  type NewPodcastFeed,
  type PodcastFeed,
  type PodcastFeedScope,
} from '@/api/feedsApi';
import { useGetSourcesQuery } from '@/api/sourcesApi';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyableSecret } from '@/components/CopyableSecret';
import { ShownOnceDialog } from '@/components/ShownOnceDialog';
import { LoadFailed } from '@/components/LoadFailed';
import { formatDateTime } from '@/lib/format';
import { showToast } from '@/lib/toast';

export const FEED_ERRORS = {
  list: 'Failed to load your podcast feeds',
  create: 'Failed to create the feed',
  revoke: 'Failed to revoke the feed',
  rotate: 'Failed to make a new URL',
  copy: 'Could not copy the feed URL',
} as const;

/** Longest tag name the server takes. */
export const MAX_FEED_TAG = 100;

const SCOPE_LABELS: Record<PodcastFeedScope, string> = {
  vault: 'Whole Vault',
  source: 'Source',
  tag: 'Tag',
};

/**
 * Settings → Podcast Feeds: publish the whole Vault, one source or one tag as a private podcast
 * feed with transcripts. Podcast apps cannot sign in, so each feed has a secret URL, shown when it
 * is made (or given a new one) and never again; revoking a feed ends its URL at once.
 */
export function PodcastFeedsPanel() {
  const dispatch = useAppDispatch();
  const { data: feeds = [], isLoading, error, refetch } = useListPodcastFeedsQuery();
  const [revokeFeed, revokeState] = useRevokePodcastFeedMutation();
  const [rotateFeed, rotateState] = useRotatePodcastFeedMutation();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<PodcastFeed | null>(null);
  const [rotating, setRotating] = useState<PodcastFeed | null>(null);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const [shown, setShown] = useState<NewPodcastFeed | null>(null);
  const headingId = useId();

  async function revoke(feed: PodcastFeed) {
    try {
      await revokeFeed(feed.id).unwrap();
      dispatch(showToast({ title: 'Feed revoked', description: `“${feed.name}” no longer answers podcast apps.`, variant: 'success' }));
    } catch (failure) {
      dispatch(showToast({ title: 'Error', description: errorMessage(failure, FEED_ERRORS.revoke), variant: 'destructive' }));
    }
    setRevoking(null);
  }

  async function rotate(feed: PodcastFeed) {
    setRotateError(null);
    try {
      const rotated = await rotateFeed(feed.id).unwrap();
      setRotating(null);
      setShown(rotated);
    } catch (failure) {
      setRotateError(errorMessage(failure, FEED_ERRORS.rotate));
    }
  }

  return (
    <section className="card podcast-feeds" aria-labelledby={headingId}>
      <div className="card-header">
        <div>
          <h2 id={headingId} className="card-title">
            <Rss size={18} aria-hidden="true" /> Podcast Feeds
          </h2>
          <p className="muted card-subtitle">
            Listen to your recordings in a podcast app, with their transcripts. Each feed has a private URL: anyone who has it can listen, so share it with nobody.
          </p>
        </div>
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setCreating(true)}>
          <Plus size={14} aria-hidden="true" /> Create feed
        </button>
      </div>
      {isLoading ? (
        <p className="card-body muted" role="status">
          Loading...
        </p>
      ) : error && feeds.length === 0 ? (
        <LoadFailed message={errorMessage(error, FEED_ERRORS.list)} onRetry={() => void refetch()} />
      ) : feeds.length === 0 ? (
        <p className="card-body muted">No feeds yet.</p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table podcast-feeds-table">
              <thead>
                <tr>
                  <th scope="col">Feed</th>
                  <th scope="col">Publishes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last fetched</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {feeds.map((feed) => (
                  <tr key={feed.id} data-testid="podcast-feed-row">
                    <td data-label="Feed">
                      <span className="podcast-feed-name">{feed.name}</span>
                    </td>
                    <td data-label="Publishes">{SCOPE_LABELS[feed.scope]}</td>
                    <td data-label="Created">{formatDateTime(feed.createdAt)}</td>
                    <td data-label="Last fetched">{feed.lastFetchedAt ? formatDateTime(feed.lastFetchedAt) : <span className="muted">Never</span>}</td>
                    <td className="cell-actions">
                      <button
                        type="button"
                        className="btn btn-sm btn-outline"
                        aria-label={`Make a new URL for “${feed.name}”`}
                        onClick={() => {
                          setRotateError(null);
                          setRotating(feed);
                        }}
                      >
                        <RotateCw size={14} aria-hidden="true" /> New URL
                      </button>
                      <button type="button" className="btn btn-sm btn-danger-outline" aria-label={`Revoke the feed “${feed.name}”`} onClick={() => setRevoking(feed)}>
                        <Trash2 size={14} aria-hidden="true" /> Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="card-body muted field-hint">A feed’s URL is shown once, when it is made. Lost it? “New URL” makes another and ends the old one.</p>
        </>
      )}
      {creating && <CreateFeedDialog onClose={() => setCreating(false)} />}
      {shown && <FeedUrlDialog title="New feed URL" feed={shown} onClose={() => setShown(null)} />}
      {revoking && (
        <ConfirmDialog
          title="Revoke this feed?"
          description={`Podcast apps subscribed to “${revoking.name}” stop receiving it at once. This cannot be undone.`}
          confirmLabel="Revoke feed"
          busyLabel="Revoking..."
          busy={revokeState.isLoading}
          onConfirm={() => void revoke(revoking)}
          onClose={() => setRevoking(null)}
        />
      )}
      {rotating && (
        <ConfirmDialog
          title="Make a new URL?"
          description={`The current URL of “${rotating.name}” stops working at once: podcast apps subscribed with it must be given the new one.`}
          confirmLabel="Make new URL"
          busyLabel="Making..."
          icon={RotateCw}
          tone="primary"
          busy={rotateState.isLoading}
          error={rotateError}
          onConfirm={() => void rotate(rotating)}
          onClose={() => setRotating(null)}
        />
      )}
    </section>
  );
}

/** 'Create feed': what it publishes; then its URL, once, with how to subscribe. */
function CreateFeedDialog({ onClose }: { onClose: () => void }) {
  const [createFeed, { isLoading: saving }] = useCreatePodcastFeedMutation();
  const [scope, setScope] = useState<PodcastFeedScope>('vault');
  const [sourceId, setSourceId] = useState('');
  const [tag, setTag] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<NewPodcastFeed | null>(null);
  const sources = useGetSourcesQuery(undefined, { skip: scope !== 'source' });
  const tags = useListFeedTagsQuery(undefined, { skip: scope !== 'tag' });
  const ids = { scope: useId(), source: useId(), tag: useId(), tags: useId(), fieldError: useId() };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setError(null);
    let id: string | undefined;
    if (scope === 'source') {
      if (!sourceId) {
        setFieldError('Pick the source to publish');
        document.getElementById(ids.source)?.focus();
        return;
      }
      id = sourceId;
    } else if (scope === 'tag') {
      const trimmed = tag.trim();
      if (!trimmed) {
        setFieldError('Name the tag to publish');
        document.getElementById(ids.tag)?.focus();
        return;
      }
      id = trimmed;
    }
    try {
      setCreated(await createFeed(id === undefined ? { scope } : { scope, id }).unwrap());
    } catch (failure) {
      setError(errorMessage(failure, FEED_ERRORS.create));
    }
  }

  if (created) return <FeedUrlDialog title="Feed created" feed={created} onClose={onClose} />;

  const sourceList = sources.data ?? [];
  const fieldInvalid = fieldError ? { 'aria-invalid': true, 'aria-describedby': ids.fieldError } : {};
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !saving && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-md">
          <div className="dialog-header">
            <div>
              <Dialog.Title className="dialog-title">Create podcast feed</Dialog.Title>
              <Dialog.Description className="muted">Its episodes are your recordings, newest first, each with its transcript.</Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label="Close" disabled={saving}>
                <X size={18} aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          <form className="dialog-form" noValidate onSubmit={(event) => void onSubmit(event)}>
            {error && (
              <div className="alert alert-error" role="alert">
                <span>{error}</span>
              </div>
            )}
            <div className="field">
              <label htmlFor={ids.scope}>Publish</label>
              <select
                id={ids.scope}
                value={scope}
                onChange={(event) => {
                  setScope(event.target.value as PodcastFeedScope);
                  setFieldError(null);
                }}
              >
                <option value="vault">The whole Vault</option>
                <option value="source">A source (channel or playlist)</option>
                <option value="tag">A tag</option>
              </select>
            </div>
            {scope === 'source' && (
              <div className="field">
                <label htmlFor={ids.source}>Source</label>
                {sources.isLoading ? (
                  <p className="muted" role="status">
                    Loading your sources...
                  </p>
                ) : sources.error ? (
                  <p className="field-error" role="alert">
                    {errorMessage(sources.error, 'Failed to load your sources')}
                  </p>
                ) : (
                  <select id={ids.source} value={sourceId} onChange={(event) => (setSourceId(event.target.value), setFieldError(null))} {...fieldInvalid}>
                    <option value="">{sourceList.length === 0 ? 'No sources yet: add one on the Sources page' : 'Choose a source'}</option>
                    {sourceList.map((source) => (
                      <option key={source.id} value={source.id}>
                        {source.title}
                      </option>
                    ))}
                  </select>
                )}
              </div>
            )}
            {scope === 'tag' && (
              <div className="field">
                <label htmlFor={ids.tag}>Tag</label>
                <input
                  id={ids.tag}
                  type="text"
                  value={tag}
                  maxLength={MAX_FEED_TAG}
                  list={ids.tags}
                  placeholder="interviews"
                  onChange={(event) => (setTag(event.target.value), setFieldError(null))}
                  {...fieldInvalid}
                />
                <datalist id={ids.tags}>
                  {(tags.data ?? []).map((known) => (
                    <option key={known.id} value={known.name} />
                  ))}
                </datalist>
              </div>
            )}
            {fieldError && (
              <p id={ids.fieldError} className="field-error">
                {fieldError}
              </p>
            )}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn btn-outline" disabled={saving}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={saving}>
                {saving ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Plus size={16} aria-hidden="true" />}
                {saving ? 'Creating...' : 'Create feed'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A feed's secret URL, with Copy and how to subscribe to it. Shown once. */
function FeedUrlDialog({ title, feed, onClose }: { title: string; feed: NewPodcastFeed; onClose: () => void }) {
  const dispatch = useAppDispatch();

  return (
    <ShownOnceDialog title={title} description="Copy the URL now: it is shown only once." onClose={onClose}>
      <CopyableSecret
        label={`Feed URL of “${feed.name}”`}
        value={feed.url}
        noun="URL"
        hint="Anyone with this URL can listen: keep it to yourself."
        onCopyFailed={() => dispatch(showToast({ title: 'Error', description: FEED_ERRORS.copy, variant: 'destructive' }))}
      />
      <div className="podcast-subscribe-hint">
        <h3 className="subheading">Subscribe</h3>
        <ul>
          <li>
            <strong>AntennaPod</strong>: + (Add podcast) → Add podcast by RSS address → paste the URL.
          </li>
          <li>
            <strong>Apple Podcasts</strong>: Library → ⋯ → Follow a Show by URL → paste the URL.
          </li>
          <li>Other apps: look for “Add by URL” or “Add RSS feed”. Apps that read Podcasting 2.0 transcripts show them as you listen.</li>
        </ul>
      </div>
    </ShownOnceDialog>
  );
}
