import { baseApi, type Envelope } from '@/api/baseApi';
import type { BatchAnswer } from './conversionItems';

/** `POST /api/convert/markdown/batch` (docs/conversion-settings-api.md). */
export interface ConvertBatchRequest {
  /** 1–100 transcripts. */
  transcripts: Array<{ id: string; title: string; transcriptPath: string }>;
  /** Markdown with {{title}}, {{content}}, {{date}}, {{source}}; left out for the default layout. */
  template?: string;
}

/** The contract takes at most 100 a call; smaller batches let the rows finish as they go. */
export const CONVERT_BATCH_SIZE = 10;

export const CONVERSION_ERRORS = {
  convert: 'Failed to convert transcripts',
  save: 'Failed to save to vault',
} as const;

export const conversionApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    convertTranscripts: build.mutation<BatchAnswer, ConvertBatchRequest>({
      query: (body) => ({ url: '/convert/markdown/batch', method: 'POST', body }),
      transformResponse: (response: Envelope<Partial<BatchAnswer>>) => ({
        results: Array.isArray(response?.data?.results) ? response.data.results : [],
        failed: Array.isArray(response?.data?.failed) ? response.data.failed : [],
        unknownPlaceholders: Array.isArray(response?.data?.unknownPlaceholders) ? response.data.unknownPlaceholders : [],
      }),
      // Writes converted files: never repeated by itself.
      extraOptions: { maxRetries: 0 },
    }),
  }),
});

export const { useConvertTranscriptsMutation } = conversionApi;
