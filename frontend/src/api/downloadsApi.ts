import { baseApi } from './baseApi';
import {
  normalizeJob,
  withCancelledJob,
  withNewJob,
  withRetriedJob,
  type DownloadJob,
} from './downloadJobs';
import type { Schema } from './types';

/**
 * Download jobs: /downloads lists, cancels and retries them; /sources and Find Videos create
 * them. The list lives in the cache of `getDownloadJobs` and follows the rules of docs/product-spec.md §4
 * (`downloadJobs.ts`): each change below patches it, and the downloads feature applies the
 * socket's `downloadProgress` events to it.
 */

/** `videoIds`: at most 100 (MAX_VIDEOS_PER_JOB). */
export type CreateDownloadJobRequest = Schema<'NewDownloadJob'>;

// Each of these changes server state: never repeated by itself.
const once = { maxRetries: 0 };

export const downloadsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** Newest first. */
    getDownloadJobs: build.query<DownloadJob[], void>({
      query: () => '/downloads',
      transformResponse: (response: Schema<'Envelope_Vec_DownloadJobView'>) =>
        Array.isArray(response?.data) ? response.data.map(normalizeJob) : [],
      providesTags: ['DownloadJob'],
    }),
    createDownloadJob: build.mutation<DownloadJob, CreateDownloadJobRequest>({
      query: (body) => ({ url: '/downloads', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_DownloadJobView'>) => normalizeJob(response.data),
      extraOptions: once,
      async onQueryStarted(_request, { dispatch, queryFulfilled }) {
        const { data: job } = await queryFulfilled.catch(() => ({ data: null }));
        if (job) dispatch(downloadsApi.util.updateQueryData('getDownloadJobs', undefined, (jobs) => withNewJob(jobs, job)));
      },
    }),
    /** `DELETE /downloads/{id}`: the job, FAILED with 'Cancelled by user'. */
    cancelDownloadJob: build.mutation<DownloadJob | null, string>({
      query: (id) => ({ url: `/downloads/${encodeURIComponent(id)}`, method: 'DELETE' }),
      transformResponse: (response: Schema<'Envelope_DownloadJobView'> | null) => (response?.data ? normalizeJob(response.data) : null),
      extraOptions: once,
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        try {
          const { data: fromServer } = await queryFulfilled;
          dispatch(downloadsApi.util.updateQueryData('getDownloadJobs', undefined, (jobs) => withCancelledJob(jobs, id, fromServer)));
        } catch {
          // Most likely the job ended meanwhile (409): show what the server has now.
          dispatch(downloadsApi.util.invalidateTags(['DownloadJob']));
        }
      },
    }),
    /** `POST /downloads/{id}/retry`: a new job for the videos that did not arrive; it replaces the old one. */
    retryDownloadJob: build.mutation<DownloadJob, string>({
      query: (id) => ({ url: `/downloads/${encodeURIComponent(id)}/retry`, method: 'POST' }),
      transformResponse: (response: Schema<'Envelope_DownloadJobView'>) => normalizeJob(response.data),
      extraOptions: once,
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const { data: job } = await queryFulfilled.catch(() => ({ data: null }));
        if (job) dispatch(downloadsApi.util.updateQueryData('getDownloadJobs', undefined, (jobs) => withRetriedJob(jobs, id, job)));
      },
    }),
  }),
});

export const {
  useGetDownloadJobsQuery,
  useCreateDownloadJobMutation,
  useCancelDownloadJobMutation,
  useRetryDownloadJobMutation,
} = downloadsApi;
