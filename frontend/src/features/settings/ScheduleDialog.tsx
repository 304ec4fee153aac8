import * as Dialog from '@radix-ui/react-dialog';
import { LoaderCircle, Save, X } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '@/api/errors';
import { useGetSourcesQuery } from '@/api/sourcesApi';
import { useUserSettings } from '@/api/userSettingsApi';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { showToast } from '@/lib/toast';
import {
  defaultScheduleForm,
  FREQUENCIES,
  frequencyOf,
  timeZoneOptions,
  validateScheduleForm,
  type ScheduleFormErrors,
  type ScheduleFormValues,
} from './scheduleForm';
import { useCreateScheduleMutation, useUpdateScheduleMutation, type Schedule, type ScheduleFrequency, type ScheduleInput } from './schedulesApi';
import { SCHEDULE_ERRORS } from './settingsListeners';

/**
 * 'Create Schedule' (defaults DAILY, 09:00 and the browser's time zone) or 'Edit Schedule' (the
 * schedule's values; only the changed fields are sent). Validation of spec §5; a failed call is
 * a destructive toast and the dialog stays open.
 */
export function ScheduleDialog({ schedule, onClose }: { schedule: Schedule | null; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const editing = schedule !== null;
  const { settings } = useUserSettings();
  const initial: ScheduleFormValues = schedule
    ? {
        sourceId: schedule.sourceId,
        frequency: frequencyOf(schedule.frequency),
        timeOfDay: schedule.timeOfDay,
        timezone: schedule.timezone,
        useCaptions: schedule.useCaptions,
      }
    : defaultScheduleForm(settings.useCaptions);
  const [values, setValues] = useState<ScheduleFormValues>(initial);
  const [errors, setErrors] = useState<ScheduleFormErrors>({});
  const sources = useGetSourcesQuery();
  const [createSchedule, createState] = useCreateScheduleMutation();
  const [updateSchedule, updateState] = useUpdateScheduleMutation();
  const saving = createState.isLoading || updateState.isLoading;
  const zones = useMemo(() => timeZoneOptions(initial.timezone), [initial.timezone]);
  const ids = {
    source: useId(),
    sourceError: useId(),
    frequency: useId(),
    time: useId(),
    timeHint: useId(),
    timeError: useId(),
    zone: useId(),
    captionsHint: useId(),
  };
  const sourceList = sources.data ?? [];
  // A schedule whose source is no longer listed still shows its title.
  const missingSource =
    schedule && !sourceList.some((source) => source.id === schedule.sourceId)
      ? { id: schedule.sourceId, title: schedule.source?.title ?? 'Unknown source' }
      : null;

  function change<K extends keyof ScheduleFormValues>(key: K, value: ScheduleFormValues[K]) {
    setValues((current) => ({ ...current, [key]: value }));
    if (key === 'sourceId' || key === 'timeOfDay') setErrors((current) => ({ ...current, [key]: undefined }));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const result = validateScheduleForm(values);
    if ('errors' in result) {
      setErrors(result.errors);
      document.getElementById(result.errors.sourceId ? ids.source : ids.time)?.focus();
      return;
    }
    setErrors({});
    try {
      if (schedule) {
        const changes = changedFields(schedule, result.input);
        if (Object.keys(changes).length > 0) {
          await updateSchedule({ id: schedule.id, changes }).unwrap();
          dispatch(showToast({ title: 'Schedule updated', description: schedule.source?.title, variant: 'success' }));
        }
      } else {
        const created = await createSchedule(result.input).unwrap();
        const title = created?.source?.title ?? sourceList.find((source) => source.id === result.input.sourceId)?.title;
        dispatch(showToast({ title: 'Schedule created', description: title, variant: 'success' }));
      }
      onClose();
    } catch (failure) {
      const fallback = schedule ? SCHEDULE_ERRORS.update : SCHEDULE_ERRORS.create;
      dispatch(showToast({ title: 'Error', description: errorMessage(failure, fallback), variant: 'destructive' }));
    }
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !saving && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-md schedule-dialog">
          <div className="dialog-header">
            <div>
              <Dialog.Title className="dialog-title">{editing ? 'Edit Schedule' : 'Create Schedule'}</Dialog.Title>
              <Dialog.Description className="muted">
                {editing ? 'Change when this source is checked for new videos.' : 'Choose a source and when to check it for new videos.'}
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label="Close" disabled={saving}>
                <X size={18} aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          <form className="schedule-form" onSubmit={(event) => void onSubmit(event)} noValidate>
            <div className="field">
              <label htmlFor={ids.source}>Source</label>
              <select
                id={ids.source}
                value={values.sourceId}
                disabled={editing || sources.isLoading}
                aria-invalid={errors.sourceId ? true : undefined}
                aria-describedby={errors.sourceId ? ids.sourceError : undefined}
                onChange={(event) => change('sourceId', event.target.value)}
              >
                <option value="">{sources.isLoading ? 'Loading sources...' : 'Select a source'}</option>
                {missingSource && <option value={missingSource.id}>{missingSource.title}</option>}
                {sourceList.map((source) => (
                  <option key={source.id} value={source.id}>
                    {source.title}
                  </option>
                ))}
              </select>
              {errors.sourceId && (
                <p id={ids.sourceError} className="field-error" role="alert">
                  {errors.sourceId}
                </p>
              )}
              {!editing && sources.isError && (
                <p className="field-error">{errorMessage(sources.error, 'Failed to fetch sources')}</p>
              )}
              {!editing && sources.isSuccess && sourceList.length === 0 && (
                <p className="field-hint">
                  You have no sources yet. <Link to={paths.sources}>Add a channel or playlist</Link> first.
                </p>
              )}
            </div>
            <div className="schedule-form-row">
              <div className="field">
                <label htmlFor={ids.frequency}>Frequency</label>
                <select
                  id={ids.frequency}
                  value={values.frequency}
                  onChange={(event) => change('frequency', event.target.value as ScheduleFrequency)}
                >
                  {FREQUENCIES.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={ids.time}>Time of day</label>
                <input
                  id={ids.time}
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder="HH:MM"
                  maxLength={5}
                  value={values.timeOfDay}
                  aria-invalid={errors.timeOfDay ? true : undefined}
                  aria-describedby={errors.timeOfDay ? `${ids.timeError} ${ids.timeHint}` : ids.timeHint}
                  onChange={(event) => change('timeOfDay', event.target.value)}
                />
                {errors.timeOfDay ? (
                  <p id={ids.timeError} className="field-error" role="alert">
                    {errors.timeOfDay}
                  </p>
                ) : null}
                <p id={ids.timeHint} className="field-hint">
                  24-hour clock, e.g. 09:00 or 18:30
                </p>
              </div>
            </div>
            <div className="field">
              <label htmlFor={ids.zone}>Time zone</label>
              <select id={ids.zone} value={values.timezone} onChange={(event) => change('timezone', event.target.value)}>
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replace(/_/g, ' ')}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label className="check">
                <input
                  type="checkbox"
                  checked={values.useCaptions}
                  aria-describedby={ids.captionsHint}
                  onChange={(event) => change('useCaptions', event.target.checked)}
                />
                Use YouTube captions when available
              </label>
              <p id={ids.captionsHint} className="field-hint">
                When new videos are downloaded, one with captions in its original language becomes a Vault item at once.
              </p>
            </div>
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn btn-outline" disabled={saving}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={saving}>
                {saving ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Save size={16} aria-hidden="true" />}
                {editing ? 'Save Changes' : 'Create Schedule'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The fields of `next` that differ from the schedule (the PATCH body of an edit). */
function changedFields(schedule: Schedule, next: ScheduleInput): Partial<ScheduleInput> {
  const changes: Partial<ScheduleInput> = {};
  if (next.frequency !== schedule.frequency) changes.frequency = next.frequency;
  if (next.timeOfDay !== schedule.timeOfDay) changes.timeOfDay = next.timeOfDay;
  if (next.timezone !== schedule.timezone) changes.timezone = next.timezone;
  if (next.useCaptions !== schedule.useCaptions) changes.useCaptions = next.useCaptions;
  return changes;
}
