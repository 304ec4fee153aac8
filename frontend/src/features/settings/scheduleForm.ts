import type { ScheduleFrequency, ScheduleInput } from './schedulesApi';

/** The form of the Create/Edit Schedule dialog and its rules (docs/product-spec.md §5, §9). */
export const FREQUENCIES: ReadonlyArray<{ value: ScheduleFrequency; label: string }> = [
  { value: 'DAILY', label: 'Daily' },
  { value: 'WEEKLY', label: 'Weekly' },
  { value: 'MONTHLY', label: 'Monthly' },
];

export const DEFAULT_FREQUENCY: ScheduleFrequency = 'DAILY';

/** A schedule's frequency (a string in the contract) as one of the form's choices; DAILY for anything else. */
export function frequencyOf(value: string): ScheduleFrequency {
  return FREQUENCIES.find((choice) => choice.value === value)?.value ?? DEFAULT_FREQUENCY;
}
export const DEFAULT_TIME_OF_DAY = '09:00';

export const SCHEDULE_MESSAGES = {
  sourceRequired: 'Source is required',
  invalidTime: 'Invalid time format',
} as const;

export function frequencyLabel(frequency: string): string {
  return FREQUENCIES.find((option) => option.value === frequency)?.label ?? frequency;
}

/** The browser's time zone, the default of a new schedule; UTC when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The time zones the browser knows, with `extra` (the current value) kept in the list. */
export function timeZoneOptions(...extra: string[]): string[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set([...zones, 'UTC', ...extra.filter(Boolean)]);
  return [...all].sort((a, b) => a.localeCompare(b));
}

// 24-hour H:MM or HH:MM, hours 0-23, minutes 00-59.
const TIME_OF_DAY = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** '9:05' → '09:05'; null when the text is not a 24-hour time. */
export function normalizeTimeOfDay(text: string): string | null {
  const match = TIME_OF_DAY.exec(text.trim());
  if (!match) return null;
  return `${match[1].padStart(2, '0')}:${match[2]}`;
}

export interface ScheduleFormValues {
  sourceId: string;
  frequency: ScheduleFrequency;
  timeOfDay: string;
  timezone: string;
  /** 'Use YouTube captions when available' for the schedule's downloads. */
  useCaptions: boolean;
}

export type ScheduleFormErrors = Partial<Record<'sourceId' | 'timeOfDay', string>>;

/** A new schedule's form; `useCaptions` is the user's default (Settings). */
export function defaultScheduleForm(useCaptions = false): ScheduleFormValues {
  return { sourceId: '', frequency: DEFAULT_FREQUENCY, timeOfDay: DEFAULT_TIME_OF_DAY, timezone: browserTimeZone(), useCaptions };
}

/** The body to send, or the messages of the fields that are wrong. */
export function validateScheduleForm(values: ScheduleFormValues): { input: ScheduleInput } | { errors: ScheduleFormErrors } {
  const errors: ScheduleFormErrors = {};
  if (!values.sourceId) errors.sourceId = SCHEDULE_MESSAGES.sourceRequired;
  const timeOfDay = normalizeTimeOfDay(values.timeOfDay);
  if (!timeOfDay) errors.timeOfDay = SCHEDULE_MESSAGES.invalidTime;
  if (errors.sourceId || errors.timeOfDay || !timeOfDay) return { errors };
  return {
    input: {
      sourceId: values.sourceId,
      frequency: values.frequency,
      timeOfDay,
      timezone: values.timezone || browserTimeZone(),
      useCaptions: values.useCaptions,
    },
  };
}
