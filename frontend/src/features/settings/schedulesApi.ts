import { baseApi, type Envelope } from '@/api/baseApi';

/** A scheduled sync of one source (spec §3). */
export type ScheduleFrequency = 'DAILY' | 'WEEKLY' | 'MONTHLY';

export interface Schedule {
  id: string;
  sourceId: string;
  source: { type: string; title: string; thumbnailUrl: string | null } | null;
  frequency: ScheduleFrequency;
  /** 'HH:MM', 24 h, in `timezone`. */
  timeOfDay: string;
  timezone: string;
  isActive: boolean;
  /** RFC 3339; null while inactive. */
  nextRunAt: string | null;
  lastRunAt: string | null;
  createdAt?: string;
}

export interface ScheduleInput {
  sourceId: string;
  frequency: ScheduleFrequency;
  timeOfDay: string;
  timezone: string;
}

export interface ScheduleRun {
  schedule: Schedule;
  /** Videos the sync found that the source did not have. */
  newVideos: number;
}

// Each of these changes server state: never repeated by itself.
const once = { maxRetries: 0 };

export const schedulesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getSchedules: build.query<Schedule[], void>({
      query: () => '/schedules',
      transformResponse: (response: Envelope<Schedule[]>) => (Array.isArray(response?.data) ? response.data : []),
      providesTags: ['Schedule'],
    }),
    createSchedule: build.mutation<Schedule, ScheduleInput>({
      query: (body) => ({ url: '/schedules', method: 'POST', body }),
      transformResponse: (response: Envelope<Schedule>) => response.data,
      invalidatesTags: ['Schedule'],
      extraOptions: once,
    }),
    /** The edited fields, or `{isActive}` to enable or disable. */
    updateSchedule: build.mutation<Schedule, { id: string; changes: Partial<ScheduleInput> | { isActive: boolean } }>({
      query: ({ id, changes }) => ({ url: `/schedules/${encodeURIComponent(id)}`, method: 'PATCH', body: changes }),
      transformResponse: (response: Envelope<Schedule>) => response.data,
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
      transformResponse: (response: Envelope<Schedule> & { meta?: { newVideos?: number } | null }) => ({
        schedule: response.data,
        newVideos: Number(response?.meta?.newVideos ?? 0) || 0,
      }),
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
