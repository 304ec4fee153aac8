import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';

/** A webhook as Settings lists it (never its secret): `GET /api/webhooks`. */
export type Webhook = Schema<'WebhookView'>;
/** A webhook just made, with its `whsec_…` secret, shown this once. */
export type NewWebhook = Schema<'NewWebhookView'>;
export type NewWebhookRequest = Schema<'NewWebhookRequest'>;
export type WebhookChange = Schema<'WebhookChangeRequest'>;
export type WebhookEvent = Schema<'WebhookEvent'>;
/** One attempt of one delivery, from the log or 'Send test'. */
export type WebhookAttempt = Schema<'WebhookAttemptView'>;
/** A webhook's new signing secret after a rotation, shown this once. */
export type WebhookSecret = Schema<'WebhookSecretView'>;

/**
 * A member's webhooks (Settings → Webhooks). Deliveries happen on the server; the log is read
 * when it is opened and after a test, so it carries no tag of its own.
 */
export const webhooksApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listWebhooks: build.query<Webhook[], void>({
      query: () => '/webhooks',
      transformResponse: (response: Schema<'Envelope_WebhooksView'>) => response.data.webhooks,
      providesTags: ['Webhook'],
    }),
    createWebhook: build.mutation<NewWebhook, NewWebhookRequest>({
      query: (body) => ({ url: '/webhooks', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_NewWebhookView'>) => response.data,
      invalidatesTags: ['Webhook'],
    }),
    updateWebhook: build.mutation<Webhook, { id: string; change: WebhookChange }>({
      query: ({ id, change }) => ({ url: `/webhooks/${encodeURIComponent(id)}`, method: 'PATCH', body: change }),
      transformResponse: (response: Schema<'Envelope_WebhookView'>) => response.data,
      invalidatesTags: ['Webhook'],
    }),
    deleteWebhook: build.mutation<void, string>({
      query: (id) => ({ url: `/webhooks/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Webhook'],
    }),
    rotateWebhookSecret: build.mutation<WebhookSecret, string>({
      query: (id) => ({ url: `/webhooks/${encodeURIComponent(id)}/rotate-secret`, method: 'POST' }),
      transformResponse: (response: Schema<'Envelope_WebhookSecretView'>) => response.data,
    }),
    testWebhook: build.mutation<WebhookAttempt, string>({
      query: (id) => ({ url: `/webhooks/${encodeURIComponent(id)}/test`, method: 'POST' }),
      transformResponse: (response: Schema<'Envelope_WebhookAttemptView'>) => response.data,
      invalidatesTags: ['Webhook'],
    }),
    webhookDeliveries: build.query<WebhookAttempt[], string>({
      query: (id) => `/webhooks/${encodeURIComponent(id)}/deliveries`,
      transformResponse: (response: Schema<'Envelope_WebhookDeliveriesView'>) => response.data.attempts,
      providesTags: ['Webhook'],
    }),
  }),
});

export const {
  useListWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useWebhookDeliveriesQuery,
} = webhooksApi;
