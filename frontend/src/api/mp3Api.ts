import { baseApi } from './baseApi';
import type { Schema } from './types';

/**
 * MP3 files of the signed-in user, shared by more than one feature (Create Transcripts, Find
 * Videos, the bulk upload screen), so they live here rather than in a feature's own `<feature>Api.ts`.
 */

export type ManualUpload = Schema<'ManualUploadView'>;
export type Mp3Status = Schema<'Mp3StatusView'>;

/**
 * Video ids asked about per status call. A channel fetched with "All" can list thousands of
 * videos; the gateway takes at most 1000 ids per call, and a short query string stays well under
 * any proxy's URL limit.
 */
export const MP3_STATUS_CHUNK_SIZE = 200;

export const mp3Api = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getManualUploads: build.query<ManualUpload[], void>({
      query: () => '/video-mp3/manual-uploads',
      transformResponse: (response: Schema<'Envelope_ManualUploadsView'>) => response.data?.videos ?? [],
      providesTags: ['ManualUploads'],
    }),
    /** `GET /video-mp3/status?videoIds=a,b`, in chunks of 200 ids whose answers are merged. */
    getMp3StatusForVideos: build.query<Record<string, Mp3Status>, string[]>({
      async queryFn(videoIds, _api, _extraOptions, baseQuery) {
        const chunks: string[][] = [];
        for (let index = 0; index < videoIds.length; index += MP3_STATUS_CHUNK_SIZE) {
          chunks.push(videoIds.slice(index, index + MP3_STATUS_CHUNK_SIZE));
        }
        const results = await Promise.all(
          chunks.map(async (chunk) => baseQuery(`/video-mp3/status?videoIds=${chunk.map(encodeURIComponent).join(',')}`)),
        );
        const statuses: Record<string, Mp3Status> = {};
        for (const result of results) {
          if (result.error) return { error: result.error };
          Object.assign(statuses, (result.data as Schema<'Envelope_BTreeMap_String_Mp3StatusView'> | null)?.data ?? {});
        }
        return { data: statuses };
      },
      providesTags: ['Mp3Status'],
    }),
  }),
});

export const { useGetManualUploadsQuery, useGetMp3StatusForVideosQuery } = mp3Api;
