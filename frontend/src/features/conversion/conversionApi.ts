import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';
import type { BatchAnswer } from './conversionItems';

/**
 * `POST /api/convert/markdown/batch` (docs/conversion-settings-api.md): 1–100 transcripts; `template` is markdown with {{title}}, {{content}}, {{date}}, {{source}}, left
 * out for the default layout.
 */
export type ConvertBatchRequest = Schema<'MarkdownBatch'>;

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
      transformResponse: (response: Schema<'Envelope_MarkdownBatchView'>) => response.data,
      // Writes converted files: never repeated by itself.
      extraOptions: { maxRetries: 0 },
    }),
  }),
});

export const { useConvertTranscriptsMutation } = conversionApi;
