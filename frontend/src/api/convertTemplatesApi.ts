import { baseApi } from './baseApi';
import type { Schema } from './types';

/**
 * Named markdown templates (`/api/convert/templates`, docs/conversion-settings-api.md), shared
 * by the convert screen and the Vault's Import PDF dialog.
 */
export type ConvertTemplate = Schema<'TemplateView'>;
export type ConvertTemplateInput = Schema<'TemplateInput'>;

/** The placeholders a template may use (docs/product-spec.md §5). Anything else in braces is kept as written. */
export const TEMPLATE_PLACEHOLDERS = [
  { name: 'title', meaning: 'the title' },
  { name: 'content', meaning: 'the text, in paragraphs' },
  { name: 'date', meaning: 'the date of the conversion' },
  { name: 'source', meaning: 'where the text came from' },
] as const;

/** What the server uses without a template (the contract's default). */
export const DEFAULT_TEMPLATE_BODY = '# {{title}}\n\n*Source: {{source}} · {{date}}*\n\n{{content}}\n';

/** Names are 1–100 characters, bodies at most 64 KB (the contract). */
export const TEMPLATE_NAME_MAX = 100;
export const TEMPLATE_BODY_MAX_BYTES = 64 * 1024;

export const TEMPLATE_ERRORS = {
  fetch: 'Failed to fetch templates',
  save: 'Failed to save template',
  delete: 'Failed to delete template',
} as const;

const once = { maxRetries: 0 };

export const convertTemplatesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getConvertTemplates: build.query<ConvertTemplate[], void>({
      query: () => '/convert/templates',
      transformResponse: (response: Schema<'Envelope_Vec_TemplateView'>) => (Array.isArray(response?.data) ? response.data : []),
      providesTags: ['ConvertTemplate'],
    }),
    createConvertTemplate: build.mutation<ConvertTemplate, ConvertTemplateInput>({
      query: (body) => ({ url: '/convert/templates', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_TemplateView'>) => response.data,
      invalidatesTags: (_result, error) => (error ? [] : ['ConvertTemplate']),
      extraOptions: once,
    }),
    updateConvertTemplate: build.mutation<ConvertTemplate, { id: string } & ConvertTemplateInput>({
      query: ({ id, ...body }) => ({ url: `/convert/templates/${encodeURIComponent(id)}`, method: 'PUT', body }),
      transformResponse: (response: Schema<'Envelope_TemplateView'>) => response.data,
      invalidatesTags: (_result, error) => (error ? [] : ['ConvertTemplate']),
      extraOptions: once,
    }),
    deleteConvertTemplate: build.mutation<void, string>({
      query: (id) => ({ url: `/convert/templates/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['ConvertTemplate']),
      extraOptions: once,
    }),
  }),
});

export const {
  useGetConvertTemplatesQuery,
  useCreateConvertTemplateMutation,
  useUpdateConvertTemplateMutation,
  useDeleteConvertTemplateMutation,
} = convertTemplatesApi;
