import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';

/** A scheduled sync of one source (docs/product-spec.md §3). */
export type ScheduleFrequency = 'DAILY' | 'WEEKLY' | 'MONTHLY';

/** `timeOfDay` is 'HH:MM', 24 h, in `timezone`; `nextRunAt` (RFC 3339) is null while inactive. */
export type Schedule = Schema<'ScheduleView'>;

/** A new schedule as the form sends it: every field filled in. */
export type ScheduleInput = Required<Schema<'NewSchedule'>>;

/** `meta.newVideos`: videos the sync found that the source did not have. */
export type ScheduleRun = Schema<'ScheduleRun'>;

// Each of these changes server state: never repeated by itself.
const once = { maxRetries: 0 };

export const schedulesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getSchedules: build.query<Schedule[], void>({
      query: () => '/schedules',
      transformResponse: (response: Schema<'Envelope_Vec_ScheduleView'>) => (Array.isArray(response?.data) ? response.data : []),
      providesTags: ['Schedule'],
    }),
    createSchedule: build.mutation<Schedule, ScheduleInput>({
      query: (body) => ({ url: '/schedules', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_ScheduleView'>) => response.data,
      invalidatesTags: ['Schedule'],
      extraOptions: once,
    }),
    /** The edited fields, or `{isActive}` to enable or disable. */
    updateSchedule: build.mutation<Schedule, { id: string; changes: Schema<'ScheduleChanges'> }>({
      query: ({ id, changes }) => ({ url: `/schedules/${encodeURIComponent(id)}`, method: 'PATCH', body: changes }),
      transformResponse: (response: Schema<'Envelope_ScheduleView'>) => response.data,
      invalidatesTags: ['Schedule'],
      extraOptions: once,
    }),
    deleteSchedule: build.mutation<void, string>({
      query: (id) => ({ url: `/schedules/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Schedule'],
      extraOptions: once,
    }),
    /** `POST /schedules/{id}/run`: syncs the source now. */
    runSchedule: build.mutation<ScheduleRun, string>({
      query: (id) => ({ url: `/schedules/${encodeURIComponent(id)}/run`, method: 'POST' }),
      invalidatesTags: ['Schedule'],
      extraOptions: once,
    }),
  }),
});

export const {
  useGetSchedulesQuery,
  useCreateScheduleMutation,
  useUpdateScheduleMutation,
  useDeleteScheduleMutation,
  useRunScheduleMutation,
} = schedulesApi;
