import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';

/** A signed, expiring link to an AUDIO item's recording, which an `<audio>` element can follow. */
export type AudioLink = Schema<'AudioLinkView'>;
export type TimedSegment = Schema<'TimedSegmentView'>;
export type TimedWord = Schema<'TimedWordView'>;

export const playerApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** Asked each time a player mounts: the link lasts a listening session, not the cache's life. */
    getAudioLink: build.query<AudioLink, string>({
      query: (id) => `/library/transcripts/${encodeURIComponent(id)}/audio-link`,
      transformResponse: (response: Schema<'Envelope_AudioLinkView'>) => response.data,
      keepUnusedDataFor: 0,
    }),
    getTranscriptSegments: build.query<TimedSegment[], string>({
      query: (id) => `/library/transcripts/${encodeURIComponent(id)}/segments`,
      transformResponse: (response: Schema<'Envelope_SegmentsView'>) => response.data?.segments ?? [],
      // A transcript replaced by Whisper brings new segments (its libraryUpdate invalidates the tag).
      providesTags: (_result, _error, id) => [{ type: 'Transcript', id }],
    }),
  }),
});

export const { useGetAudioLinkQuery, useGetTranscriptSegmentsQuery } = playerApi;
