import { baseApi } from './baseApi';
import type { Schema } from './types';

/**
 * The spoken languages Whisper transcribes (issue 24 §5), from `GET /api/transcription/languages`:
 * what the `transcriptionLanguage` setting and a start request's `language` take besides `auto`.
 * Settings offers them; the Vault names an item's language with them. The list is the server's
 * (the one it checks against), so it is fetched once and kept.
 */
export type WhisperLanguage = Schema<'LanguageView'>;

/** The setting's value for "detect the language of each file". */
export const AUTO_LANGUAGE = 'auto';

export const languagesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getTranscriptionLanguages: build.query<WhisperLanguage[], void>({
      query: () => '/transcription/languages',
      transformResponse: (response: Schema<'Envelope_LanguagesView'>) => response.data.languages,
      // The list changes only with the server's whisper.cpp: keep it for the session.
      keepUnusedDataFor: 24 * 60 * 60,
    }),
  }),
});

export const { useGetTranscriptionLanguagesQuery } = languagesApi;

/**
 * A language's name for people (`de` → German): the server's list when it is loaded, else the
 * browser's own name for the code, else the code itself.
 */
export function languageName(code: string, languages: readonly WhisperLanguage[] | undefined): string {
  const listed = languages?.find((language) => language.code === code);
  if (listed) return listed.name;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The languages sorted by name, for a picker. */
export function byName(languages: readonly WhisperLanguage[]): WhisperLanguage[] {
  return [...languages].sort((a, b) => a.name.localeCompare(b.name));
}
