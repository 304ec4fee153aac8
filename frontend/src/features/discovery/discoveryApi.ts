import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';
import { filenameFromContentDisposition } from '@/lib/download';

/** A video of a channel or a source (docs/product-spec.md §3). */
/** `duration` in seconds; `publishedAt` RFC 3339. */
export type DiscoveryVideo = Schema<'VideoView'>;

/** A channel as the search answers it (docs/product-spec.md §3). YouTube sends the counts as strings. */
/** `id`: YouTube's channel id (UC…); a source for the channel is added by it. */
export type DiscoveryChannel = Schema<'ChannelView'>;

/** `newCount`: videos the server had not seen at the previous search of this channel. */
export type ChannelVideosResult = Schema<'ChannelVideosView'>;

/** The video counts of the selector (docs/product-spec.md §9); -1 is "All". */
export const VIDEO_COUNTS = [100, 200, 500, -1] as const;
export type VideoCount = (typeof VIDEO_COUNTS)[number];
export const DEFAULT_VIDEO_COUNT: VideoCount = 100;
export const ALL_VIDEOS: VideoCount = -1;

/** The search's body (SearchBody) and its query parameters: how many videos, and whether to ask YouTube again. */
export type ChannelVideosRequest = Required<Schema<'SearchBody'>> & { limit: VideoCount; refresh: boolean };

/** Today's YouTube Data API use of the server's key, in quota units. */
export type DiscoveryQuota = Schema<'QuotaView'>;

export type ExportType = 'urls' | 'all';

export interface ExportedFile {
  filename: string;
  csv: string;
}

export const DEFAULT_EXPORT_FILENAME = 'videos.csv';

export type SourceVideosPage = Schema<'SourceVideosPage'>;

// A search can spend a lot of the YouTube quota ("All"): it is never repeated by itself.
const once = { maxRetries: 0 };

export const discoveryApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    searchChannelVideos: build.mutation<ChannelVideosResult, ChannelVideosRequest>({
      query: ({ channelUrl, limit, refresh }) => ({
        url: `/youtube-discovery/channel-videos?limit=${limit}&refresh=${refresh}`,
        method: 'POST',
        body: { channelUrl },
      }),
      transformResponse: (response: Schema<'Envelope_ChannelVideosView'>) => response.data,
      invalidatesTags: ['DiscoveryQuota'],
      extraOptions: once,
    }),
    getDiscoveryQuota: build.query<DiscoveryQuota, void>({
      query: () => '/youtube-discovery/quota',
      transformResponse: (response: Schema<'Envelope_QuotaView'>) => response.data,
      providesTags: ['DiscoveryQuota'],
      extraOptions: once,
    }),
    /** The CSV answer as text, with the file name of its Content-Disposition header. */
    exportVideos: build.mutation<ExportedFile, Schema<'ExportBody'> & { exportType: ExportType }>({
      async queryFn(body, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({
          url: '/youtube-discovery/export',
          method: 'POST',
          body,
          responseHandler: 'content-type',
        });
        if (result.error) return { error: result.error };
        const filename =
          filenameFromContentDisposition(headerOf(result.meta, 'Content-Disposition')) ?? DEFAULT_EXPORT_FILENAME;
        const csv = typeof result.data === 'string' ? result.data : '';
        return { data: { filename, csv } };
      },
    }),
    /** 50 videos a page; later pages are appended (docs/product-spec.md §4). */
    getSourceVideos: build.infiniteQuery<SourceVideosPage, string, string>({
      infiniteQueryOptions: {
        initialPageParam: '',
        getNextPageParam: (lastPage) =>
          lastPage.meta?.hasMore && lastPage.meta.nextPageToken ? lastPage.meta.nextPageToken : undefined,
      },
      query: ({ queryArg, pageParam }) =>
        `/sources/${encodeURIComponent(queryArg)}/videos${pageParam ? `?pageToken=${encodeURIComponent(pageParam)}` : ''}`,
      // No tag: a change to the list of sources (say, one added elsewhere) leaves the videos of
      // the others as they were, so every loaded page is not fetched again.
    }),
  }),
});

export const {
  useGetDiscoveryQuotaQuery,
  useExportVideosMutation,
  useGetSourceVideosInfiniteQuery,
} = discoveryApi;

/** A header of the answer fetchBaseQuery keeps in a result's meta (`meta.response`). */
function headerOf(meta: unknown, name: string): string | null {
  if (!meta || typeof meta !== 'object' || !('response' in meta)) return null;
  const response = meta.response as Partial<Response> | undefined;
  return typeof response?.headers?.get === 'function' ? response.headers.get(name) : null;
}

/** The HTTP status of a failed call, when the server answered. */
export function httpStatusOf(error: unknown): number | null {
  const status = (error as Partial<FetchBaseQueryError> | undefined)?.status;
  return typeof status === 'number' ? status : null;
}
