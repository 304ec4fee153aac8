import { Plus, RotateCw, Rss, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { useGetSourcesQuery } from '@/api/sourcesApi';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyableSecret } from '@/components/CopyableSecret';
import { FieldError } from '@/components/Field';
import { DialogForm, FormDialog } from '@/components/FormDialog';
import { ShownOnceDialog } from '@/components/ShownOnceDialog';
import { LoadFailed } from '@/components/LoadFailed';
import { formatDateTime } from '@/lib/format';
import { showToast, useErrorToast } from '@/lib/toast';
import {
  useCreatePodcastFeedMutation,
  useListFeedTagsQuery,
  useListPodcastFeedsQuery,
  useRevokePodcastFeedMutation,
  useRotatePodcastFeedMutation,
  type NewPodcastFeed,
  type PodcastFeed,
  type PodcastFeedScope,
} from './feedsApi';

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
  const { data: feeds = [], isLoading, error, refetch } = useListPodcastFeedsQuery();
  const actions = usePodcastFeedActions();
  const { revoking, rotating, shown } = actions;
  const [creating, setCreating] = useState(false);
  const headingId = useId();

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
          <PodcastFeedsTable feeds={feeds} onRotate={actions.askRotate} onRevoke={actions.setRevoking} />
          <p className="card-body muted field-hint">A feed’s URL is shown once, when it is made. Lost it? “New URL” makes another and ends the old one.</p>
        </>
      )}
      {creating && <CreateFeedDialog onClose={() => setCreating(false)} />}
      {shown && <FeedUrlDialog title="New feed URL" feed={shown} onClose={() => actions.setShown(null)} />}
      {revoking && (
        <ConfirmDialog
          title="Revoke this feed?"
          description={`Podcast apps subscribed to “${revoking.name}” stop receiving it at once. This cannot be undone.`}
          confirmLabel="Revoke feed"
          busyLabel="Revoking..."
          busy={actions.revokeBusy}
          onConfirm={() => void actions.revoke(revoking)}
          onClose={() => actions.setRevoking(null)}
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
          busy={actions.rotateBusy}
          error={actions.rotateError}
          onConfirm={() => void actions.rotate(rotating)}
          onClose={() => actions.setRotating(null)}
        />
      )}
    </section>
  );
}

/**
 * Revoking a feed and giving it a new URL, each asked first in a dialog: the feed each dialog is
 * about, the refusal of a new URL, and the new URL to show once.
 */
function usePodcastFeedActions() {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [revokeFeed, revokeState] = useRevokePodcastFeedMutation();
  const [rotateFeed, rotateState] = useRotatePodcastFeedMutation();
  const [revoking, setRevoking] = useState<PodcastFeed | null>(null);
  const [rotating, setRotating] = useState<PodcastFeed | null>(null);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const [shown, setShown] = useState<NewPodcastFeed | null>(null);

  async function revoke(feed: PodcastFeed) {
    try {
      await revokeFeed(feed.id).unwrap();
      dispatch(showToast({ title: 'Feed revoked', description: `“${feed.name}” no longer answers podcast apps.`, variant: 'success' }));
    } catch (failure) {
      showError(failure, FEED_ERRORS.revoke);
    }
    setRevoking(null);
  }

  function askRotate(feed: PodcastFeed) {
    setRotateError(null);
    setRotating(feed);
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

  return {
    revoking,
    setRevoking,
    revoke,
    revokeBusy: revokeState.isLoading,
    rotating,
    setRotating,
    askRotate,
    rotate,
    rotateBusy: rotateState.isLoading,
    rotateError,
    shown,
    setShown,
  };
}

interface PodcastFeedsTableProps {
  feeds: PodcastFeed[];
  onRotate: (feed: PodcastFeed) => void;
  onRevoke: (feed: PodcastFeed) => void;
}

function PodcastFeedsTable({ feeds, onRotate, onRevoke }: PodcastFeedsTableProps) {
  return (
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
            <PodcastFeedRow key={feed.id} feed={feed} onRotate={() => onRotate(feed)} onRevoke={() => onRevoke(feed)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PodcastFeedRow({ feed, onRotate, onRevoke }: { feed: PodcastFeed; onRotate: () => void; onRevoke: () => void }) {
  return (
    <tr data-testid="podcast-feed-row">
      <td data-label="Feed">
        <span className="podcast-feed-name">{feed.name}</span>
      </td>
      <td data-label="Publishes">{SCOPE_LABELS[feed.scope]}</td>
      <td data-label="Created">{formatDateTime(feed.createdAt)}</td>
      <td data-label="Last fetched">{feed.lastFetchedAt ? formatDateTime(feed.lastFetchedAt) : <span className="muted">Never</span>}</td>
      <td className="cell-actions">
        <button type="button" className="btn btn-sm btn-outline" aria-label={`Make a new URL for “${feed.name}”`} onClick={onRotate}>
          <RotateCw size={14} aria-hidden="true" /> New URL
        </button>
        <button type="button" className="btn btn-sm btn-danger-outline" aria-label={`Revoke the feed “${feed.name}”`} onClick={onRevoke}>
          <Trash2 size={14} aria-hidden="true" /> Revoke
        </button>
      </td>
    </tr>
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
  const ids = { scope: useId(), source: useId(), tag: useId(), fieldError: useId() };

  async function onSubmit() {
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

  const fieldInvalid: FieldInvalid = fieldError ? { 'aria-invalid': true, 'aria-describedby': ids.fieldError } : {};
  return (
    <FormDialog
      size="md"
      title="Create podcast feed"
      description="Its episodes are your recordings, newest first, each with its transcript."
      busy={saving}
      onClose={onClose}
    >
      <DialogForm error={error} busy={saving} submitLabel="Create feed" busyLabel="Creating..." submitIcon={Plus} onSubmit={onSubmit}>
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
        {scope === 'source' && <FeedSourceField id={ids.source} value={sourceId} invalid={fieldInvalid} onChange={(value) => (setSourceId(value), setFieldError(null))} />}
        {scope === 'tag' && <FeedTagField id={ids.tag} value={tag} invalid={fieldInvalid} onChange={(value) => (setTag(value), setFieldError(null))} />}
        {fieldError && <FieldError id={ids.fieldError}>{fieldError}</FieldError>}
      </DialogForm>
    </FormDialog>
  );
}

/** The ARIA that ties the source or tag control to the error line under both. */
type FieldInvalid = { 'aria-invalid'?: true; 'aria-describedby'?: string };

/** The source a feed publishes (loaded only when that scope is chosen). */
function FeedSourceField({ id, value, invalid, onChange }: { id: string; value: string; invalid: FieldInvalid; onChange: (value: string) => void }) {
  const sources = useGetSourcesQuery();
  const sourceList = sources.data ?? [];
  return (
    <div className="field">
      <label htmlFor={id}>Source</label>
      {sources.isLoading ? (
        <p className="muted" role="status">
          Loading your sources...
        </p>
      ) : sources.error ? (
        <FieldError announce>{errorMessage(sources.error, 'Failed to load your sources')}</FieldError>
      ) : (
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)} {...invalid}>
          <option value="">{sourceList.length === 0 ? 'No sources yet: add one on the Sources page' : 'Choose a source'}</option>
          {sourceList.map((source) => (
            <option key={source.id} value={source.id}>
              {source.title}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

/** The tag a feed publishes, typed, with the Vault's tags offered (loaded only for that scope). */
function FeedTagField({ id, value, invalid, onChange }: { id: string; value: string; invalid: FieldInvalid; onChange: (value: string) => void }) {
  const tags = useListFeedTagsQuery();
  const listId = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Tag</label>
      <input
        id={id}
        type="text"
        value={value}
        maxLength={MAX_FEED_TAG}
        list={listId}
        placeholder="interviews"
        onChange={(event) => onChange(event.target.value)}
        {...invalid}
      />
      <datalist id={listId}>
        {(tags.data ?? []).map((known) => (
          <option key={known.id} value={known.name} />
        ))}
      </datalist>
    </div>
  );
}

/** A feed's secret URL, with Copy and how to subscribe to it. Shown once. */
function FeedUrlDialog({ title, feed, onClose }: { title: string; feed: NewPodcastFeed; onClose: () => void }) {
  const showError = useErrorToast();

  return (
    <ShownOnceDialog title={title} description="Copy the URL now: it is shown only once." onClose={onClose}>
      <CopyableSecret
        label={`Feed URL of “${feed.name}”`}
        value={feed.url}
        noun="URL"
        hint="Anyone with this URL can listen: keep it to yourself."
        onCopyFailed={() => showError(null, FEED_ERRORS.copy)}
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
