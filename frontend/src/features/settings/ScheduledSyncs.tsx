import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import {
  AlertCircle,
  CalendarClock,
  ListVideo,
  LoaderCircle,
  MonitorPlay,
  MoreVertical,
  Pause,
  Pencil,
  Play,
  Plus,
  RefreshCw,
  Trash2,
} from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { sourceTypeLabel } from '@/api/sourcesApi';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { showToast, useErrorToast } from '@/lib/toast';
import { ScheduleDialog } from './ScheduleDialog';
import { frequencyLabel } from './scheduleForm';
import {
  useDeleteScheduleMutation,
  useGetSchedulesQuery,
  useRunScheduleMutation,
  useUpdateScheduleMutation,
  type Schedule,
} from './schedulesApi';
import { SCHEDULE_ERRORS } from './settingsListeners';

type DialogState = { kind: 'create' } | { kind: 'edit'; schedule: Schedule } | { kind: 'delete'; schedule: Schedule } | null;

const sourceTitleOf = (schedule: Schedule) => schedule.source?.title || 'Untitled source';

/** "N new videos in {title}" after a Sync now, or "No new videos in {title}". */
export function syncResultText(newVideos: number, title: string): string {
  if (newVideos <= 0) return `No new videos in ${title}`;
  return `${newVideos} new ${newVideos === 1 ? 'video' : 'videos'} in ${title}`;
}

/** The Scheduled Syncs tab of /settings (docs/product-spec.md §2). */
export function ScheduledSyncs() {
  const { data: schedules = [], isLoading, error, refetch } = useGetSchedulesQuery();
  const [dialog, setDialog] = useState<DialogState>(null);
  const active = schedules.filter((schedule) => schedule.isActive);
  const inactive = schedules.filter((schedule) => !schedule.isActive);
  const openCreate = () => setDialog({ kind: 'create' });
  const openEdit = (schedule: Schedule) => setDialog({ kind: 'edit', schedule });
  const openDelete = (schedule: Schedule) => setDialog({ kind: 'delete', schedule });

  return (
    <section className="schedules" aria-labelledby="schedules-heading">
      <div className="section-header">
        <div>
          <h2 id="schedules-heading" className="section-title">
            Scheduled Syncs
          </h2>
          <p className="muted">Automatically sync new content from your sources</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={openCreate}>
          <Plus size={16} aria-hidden="true" /> Add Schedule
        </button>
      </div>

      {isLoading ? (
        <p className="card card-body muted" role="status">
          Loading...
        </p>
      ) : error && schedules.length === 0 ? (
        <div className="card empty-state compact" role="alert">
          <AlertCircle size={28} aria-hidden="true" className="text-danger" />
          <p className="text-danger">{errorMessage(error, SCHEDULE_ERRORS.fetch)}</p>
          <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
            <RefreshCw size={16} aria-hidden="true" /> Try again
          </button>
        </div>
      ) : schedules.length === 0 ? (
        <div className="card empty-state">
          <span className="empty-icon" aria-hidden="true">
            <CalendarClock size={28} />
          </span>
          <h3 className="empty-title">No schedules yet</h3>
          <p className="muted">A schedule checks one of your sources for new videos every day, week or month.</p>
          <button type="button" className="btn btn-primary" onClick={openCreate}>
            <Plus size={16} aria-hidden="true" /> Create Your First Schedule
          </button>
        </div>
      ) : (
        <>
          {active.length > 0 && <ScheduleGroup title="Active Schedules" schedules={active} onEdit={openEdit} onDelete={openDelete} />}
          {inactive.length > 0 && (
            <ScheduleGroup title="Inactive Schedules" schedules={inactive} onEdit={openEdit} onDelete={openDelete} />
          )}
        </>
      )}

      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <ScheduleDialog schedule={dialog.kind === 'edit' ? dialog.schedule : null} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && <DeleteScheduleDialog schedule={dialog.schedule} onClose={() => setDialog(null)} />}
    </section>
  );
}

function ScheduleGroup({
  title,
  schedules,
  onEdit,
  onDelete,
}: {
  title: string;
  schedules: Schedule[];
  onEdit: (schedule: Schedule) => void;
  onDelete: (schedule: Schedule) => void;
}) {
  const headingId = useId();
  return (
    <section className="schedule-group" aria-labelledby={headingId}>
      <h3 id={headingId} className="group-title">
        {title} <span className="count">{schedules.length}</span>
      </h3>
      <ul className="schedule-grid" aria-labelledby={headingId}>
        {schedules.map((schedule) => (
          <li key={schedule.id}>
            <ScheduleCard schedule={schedule} onEdit={() => onEdit(schedule)} onDelete={() => onDelete(schedule)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ScheduleCard({ schedule, onEdit, onDelete }: { schedule: Schedule; onEdit: () => void; onDelete: () => void }) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const titleId = useId();
  const [updateSchedule, { isLoading: toggling }] = useUpdateScheduleMutation();
  const [runSchedule, { isLoading: syncing }] = useRunScheduleMutation();
  const title = sourceTitleOf(schedule);

  async function toggle() {
    const isActive = !schedule.isActive;
    try {
      await updateSchedule({ id: schedule.id, changes: { isActive } }).unwrap();
      dispatch(showToast({ title: isActive ? 'Schedule enabled' : 'Schedule disabled', description: title, variant: 'success' }));
    } catch (failure) {
      showError(failure, SCHEDULE_ERRORS.toggle);
    }
  }

  async function syncNow() {
    try {
      const { meta } = await runSchedule(schedule.id).unwrap();
      dispatch(showToast({ title: syncResultText(meta.newVideos, title), variant: 'success' }));
    } catch (failure) {
      showError(failure, SCHEDULE_ERRORS.sync);
    }
  }

  return (
    <article className="card schedule-card" aria-labelledby={titleId} data-testid="schedule-card" data-schedule-id={schedule.id}>
      <div className="schedule-card-head">
        <ScheduleThumb schedule={schedule} />
        <div className="schedule-card-title">
          <h4 id={titleId} className="source-title">
            {title}
          </h4>
          <span className={`badge ${schedule.isActive ? 'badge-success' : 'badge-neutral'}`}>
            {schedule.isActive ? 'Active' : 'Inactive'}
          </span>
        </div>
        <ScheduleMenu
          title={title}
          isActive={schedule.isActive}
          busy={toggling || syncing}
          onEdit={onEdit}
          onToggle={() => void toggle()}
          onSyncNow={() => void syncNow()}
          onDelete={onDelete}
        />
      </div>
      <ScheduleDetails schedule={schedule} />
      {syncing && (
        <p className="schedule-syncing" role="status">
          <LoaderCircle className="spin" size={14} aria-hidden="true" /> Syncing...
        </p>
      )}
    </article>
  );
}

interface ScheduleMenuProps {
  title: string;
  isActive: boolean;
  /** A toggle or a sync is under way. */
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onSyncNow: () => void;
  onDelete: () => void;
}

function ScheduleMenu({ title, isActive, busy, onEdit, onToggle, onSyncNow, onDelete }: ScheduleMenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="icon-button" aria-label={`Schedule options for ${title}`} disabled={busy}>
          {busy ? <LoaderCircle className="spin" size={18} aria-hidden="true" /> : <MoreVertical size={18} aria-hidden="true" />}
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Item className="menu-item" onSelect={onEdit}>
            <Pencil size={16} aria-hidden="true" /> Edit Schedule
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={onToggle}>
            {isActive ? <Pause size={16} aria-hidden="true" /> : <Play size={16} aria-hidden="true" />}
            {isActive ? 'Disable' : 'Enable'}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={onSyncNow}>
            <RefreshCw size={16} aria-hidden="true" /> Sync now
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item menu-item-danger" onSelect={onDelete}>
            <Trash2 size={16} aria-hidden="true" /> Delete Schedule
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function ScheduleDetails({ schedule }: { schedule: Schedule }) {
  return (
    <dl className="schedule-details">
      <div>
        <dt>Type</dt>
        <dd>{sourceTypeLabel(schedule.source?.type)}</dd>
      </div>
      <div>
        <dt>Frequency</dt>
        <dd>{frequencyLabel(schedule.frequency)}</dd>
      </div>
      <div>
        <dt>Time</dt>
        <dd>
          <span className="tabular">{schedule.timeOfDay}</span> <span className="muted">{schedule.timezone}</span>
        </dd>
      </div>
      <div>
        <dt>Next run</dt>
        <dd>{schedule.nextRunAt ? formatDateTime(schedule.nextRunAt) : <span className="muted">Not scheduled</span>}</dd>
      </div>
      {schedule.lastRunAt && (
        <div>
          <dt>Last run</dt>
          <dd>
            <time dateTime={schedule.lastRunAt} title={formatDateTime(schedule.lastRunAt)}>
              {formatRelativeTime(schedule.lastRunAt)}
            </time>
          </dd>
        </div>
      )}
    </dl>
  );
}

function ScheduleThumb({ schedule }: { schedule: Schedule }) {
  const [failed, setFailed] = useState(false);
  const Icon = schedule.source?.type === 'PLAYLIST' ? ListVideo : MonitorPlay;
  const src = schedule.source?.thumbnailUrl;
  if (!src || failed) {
    return (
      <span className="source-thumb placeholder" aria-hidden="true" data-testid="schedule-type-icon">
        <Icon size={22} />
      </span>
    );
  }
  return <img className="source-thumb" src={src} alt="" loading="lazy" referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
}

function DeleteScheduleDialog({ schedule, onClose }: { schedule: Schedule; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [deleteSchedule, { isLoading }] = useDeleteScheduleMutation();
  const title = sourceTitleOf(schedule);

  async function confirm() {
    try {
      await deleteSchedule(schedule.id).unwrap();
      dispatch(showToast({ title: 'Schedule deleted', description: title, variant: 'success' }));
      onClose();
    } catch (failure) {
      showError(failure, SCHEDULE_ERRORS.delete);
    }
  }

  return (
    <ConfirmDialog
      title="Delete schedule?"
      description={`${title} will no longer be synced automatically. The source and its videos stay.`}
      confirmLabel="Delete"
      busyLabel="Deleting..."
      icon={Trash2}
      busy={isLoading}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
