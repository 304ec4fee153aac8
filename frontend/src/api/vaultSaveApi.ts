import { baseApi } from './baseApi';
import type { Schema } from './types';

/**
 * `POST /api/vault/save` (docs/vault-api.md): both the convert screen and the Vault's Import PDF
 * dialog save converted markdown with it. `path` is the converted file's `markdownPath`: the
 * server makes an AUDIO item of a transcript's markdown and a PDF item of a PDF's.
 */
export type VaultFile = Schema<'SavedFile'>;

/** The saved items; only their ids and titles are used here. */
export type SavedVaultItem = Schema<'TranscriptView'>;

/** The contract takes 1–100 files a call. */
export const MAX_FILES_PER_VAULT_SAVE = 100;

export const vaultSaveApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    saveToVault: build.mutation<SavedVaultItem[], VaultFile[]>({
      query: (files) => ({ url: '/vault/save', method: 'POST', body: { files } }),
      transformResponse: (response: Schema<'Envelope_Vec_TranscriptView'>) => (Array.isArray(response?.data) ? response.data : []),
      // Changes server state: never repeated by itself.
      extraOptions: { maxRetries: 0 },
      // The Vault's lists, stats and tag counts now include the new items.
      invalidatesTags: (_result, error) => (error ? [] : ['Transcript', 'LibraryStats', 'LibraryTag']),
    }),
  }),
});

export const { useSaveToVaultMutation } = vaultSaveApi;
