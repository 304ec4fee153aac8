import { baseApi, type Envelope } from './baseApi';

/**
 * MP3 files of the signed-in user, shared by more than one feature (Create Transcripts today,
 * Find Videos next), so they live here rather than in a feature's own `<feature>Api.ts`.
 */

export interface ManualUpload {
  youtubeVideoId: string | null;
  title: string;
  mp3FilePath: string;
}

export interface Mp3Status {
  hasMp3: boolean;
  mp3FilePath: string | null;
}

export const mp3Api = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getManualUploads: build.query<ManualUpload[], void>({
      query: () => '/video-mp3/manual-uploads',
      transformResponse: (response: Envelope<{ videos: ManualUpload[] }>) => response.data?.videos ?? [],
      providesTags: ['ManualUploads'],
    }),
    getMp3StatusForVideos: build.query<Record<string, Mp3Status>, string[]>({
      query: (videoIds) => `/video-mp3/status?videoIds=${videoIds.map(encodeURIComponent).join(',')}`,
      transformResponse: (response: Envelope<Record<string, Mp3Status>>) => response.data ?? {},
      providesTags: ['Mp3Status'],
    }),
  }),
});

export const { useGetManualUploadsQuery, useGetMp3StatusForVideosQuery } = mp3Api;
