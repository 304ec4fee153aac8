import { Save } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '@/api/errors';
import { useGetSourcesQuery, type Source } from '@/api/sourcesApi';
import { useUserSettings } from '@/api/userSettingsApi';
import { useAppDispatch } from '@/app/hooks';
import { Field, FieldError } from '@/components/Field';
import { DialogForm, FormDialog } from '@/components/FormDialog';
import { paths } from '@/config/paths';
import { showToast, useErrorToast } from '@/lib/toast';
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
 * schedule's values; only the changed fields are sent). Validation of docs/product-spec.md §5; a failed call is
 * a destructive toast and the dialog stays open.
 */
export function ScheduleDialog({ schedule, onClose }: { schedule: Schedule | null; onClose: () => void }) {
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
  const { save, saving } = useSaveSchedule(schedule, sources.data ?? [], onClose);
  const zones = useMemo(() => timeZoneOptions(initial.timezone), [initial.timezone]);
  const ids = { source: useId(), time: useId() };

  function change<K extends keyof ScheduleFormValues>(key: K, value: ScheduleFormValues[K]) {
    setValues((current) => ({ ...current, [key]: value }));
    if (key === 'sourceId' || key === 'timeOfDay') setErrors((current) => ({ ...current, [key]: undefined }));
  }

  async function onSubmit() {
    if (saving) return;
    const result = validateScheduleForm(values);
    if ('errors' in result) {
      setErrors(result.errors);
      document.getElementById(result.errors.sourceId ? ids.source : ids.time)?.focus();
      return;
    }
    setErrors({});
    await save(result.input);
  }

  return (
    <FormDialog
      size="md"
      className="schedule-dialog"
      title={editing ? 'Edit Schedule' : 'Create Schedule'}
      description={editing ? 'Change when this source is checked for new videos.' : 'Choose a source and when to check it for new videos.'}
      busy={saving}
      onClose={onClose}
    >
      <DialogForm className="schedule-form" busy={saving} submitLabel={editing ? 'Save Changes' : 'Create Schedule'} submitIcon={Save} onSubmit={onSubmit}>
        <SourceField id={ids.source} schedule={schedule} sources={sources} value={values.sourceId} error={errors.sourceId} onChange={(value) => change('sourceId', value)} />
        <div className="schedule-form-row">
          <FrequencyField value={values.frequency} onChange={(frequency) => change('frequency', frequency)} />
          <Field id={ids.time} label="Time of day" error={errors.timeOfDay} announceError hint="24-hour clock, e.g. 09:00 or 18:30">
            {(control) => (
              <input
                {...control}
                type="text"
                inputMode="numeric"
                autoComplete="off"
                placeholder="HH:MM"
                maxLength={5}
                value={values.timeOfDay}
                onChange={(event) => change('timeOfDay', event.target.value)}
              />
            )}
          </Field>
        </div>
        <TimeZoneField zones={zones} value={values.timezone} onChange={(zone) => change('timezone', zone)} />
        <CaptionsField checked={values.useCaptions} onChange={(checked) => change('useCaptions', checked)} />
      </DialogForm>
    </FormDialog>
  );
}

/** Creates the schedule, or sends an edit's changed fields (none: nothing is sent), then closes with a toast. */
function useSaveSchedule(schedule: Schedule | null, sourceList: Source[], onClose: () => void) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [createSchedule, createState] = useCreateScheduleMutation();
  const [updateSchedule, updateState] = useUpdateScheduleMutation();

  async function save(input: ScheduleInput) {
    try {
      if (schedule) {
        const changes = changedFields(schedule, input);
        if (Object.keys(changes).length > 0) {
          await updateSchedule({ id: schedule.id, changes }).unwrap();
          dispatch(showToast({ title: 'Schedule updated', description: schedule.source?.title, variant: 'success' }));
        }
      } else {
        const created = await createSchedule(input).unwrap();
        const title = created?.source?.title ?? sourceList.find((source) => source.id === input.sourceId)?.title;
        dispatch(showToast({ title: 'Schedule created', description: title, variant: 'success' }));
      }
      onClose();
    } catch (failure) {
      showError(failure, schedule ? SCHEDULE_ERRORS.update : SCHEDULE_ERRORS.create);
    }
  }

  return { save, saving: createState.isLoading || updateState.isLoading };
}

/** What the source list's query says, as far as the field shows it. */
interface SourcesAnswer {
  data?: Source[];
  error?: unknown;
  isLoading: boolean;
  isError: boolean;
  isSuccess: boolean;
}

/** The source to check: fixed once the schedule exists; with none yet, a link to add one. */
function SourceField({
  id,
  schedule,
  sources,
  value,
  error,
  onChange,
}: {
  id: string;
  schedule: Schedule | null;
  sources: SourcesAnswer;
  value: string;
  error: string | undefined;
  onChange: (sourceId: string) => void;
}) {
  const editing = schedule !== null;
  const sourceList = sources.data ?? [];
  // A schedule whose source is no longer listed still shows its title.
  const missingSource =
    schedule && !sourceList.some((source) => source.id === schedule.sourceId)
      ? { id: schedule.sourceId, title: schedule.source?.title ?? 'Unknown source' }
      : null;
  const notes = (
    <>
      {!editing && sources.isError && <FieldError>{errorMessage(sources.error, 'Failed to fetch sources')}</FieldError>}
      {!editing && sources.isSuccess && sourceList.length === 0 && (
        <p className="field-hint">
          You have no sources yet. <Link to={paths.sources}>Add a channel or playlist</Link> first.
        </p>
      )}
    </>
  );
  return (
    <Field id={id} label="Source" error={error} announceError notes={notes}>
      {(control) => (
        <select {...control} value={value} disabled={editing || sources.isLoading} onChange={(event) => onChange(event.target.value)}>
          <option value="">{sources.isLoading ? 'Loading sources...' : 'Select a source'}</option>
          {missingSource && <option value={missingSource.id}>{missingSource.title}</option>}
          {sourceList.map((source) => (
            <option key={source.id} value={source.id}>
              {source.title}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function FrequencyField({ value, onChange }: { value: ScheduleFrequency; onChange: (frequency: ScheduleFrequency) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Frequency</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as ScheduleFrequency)}>
        {FREQUENCIES.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function TimeZoneField({ zones, value, onChange }: { zones: string[]; value: string; onChange: (zone: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Time zone</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone.replace(/_/g, ' ')}
          </option>
        ))}
      </select>
    </div>
  );
}

function CaptionsField({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const hintId = useId();
  return (
    <div className="field">
      <label className="check">
        <input type="checkbox" checked={checked} aria-describedby={hintId} onChange={(event) => onChange(event.target.checked)} />
        Use YouTube captions when available
      </label>
      <p id={hintId} className="field-hint">
        When new videos are downloaded, one with captions in its original language becomes a Vault item at once.
      </p>
    </div>
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
