import { useId } from 'react';
import { AUTO_LANGUAGE, byName, languageName, useGetTranscriptionLanguagesQuery } from '@/api/languagesApi';

/**
 * The default spoken language of new transcriptions (`transcriptionLanguage`): Auto-detect, or
 * one of the languages the server's Whisper knows, by name. The saved value stays selectable
 * while the list loads (or when it cannot), so the form never shows a value it does not hold.
 */
export function TranscriptionLanguageField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  const { data: languages, isError } = useGetTranscriptionLanguagesQuery();
  const choices = byName(languages ?? []);
  const savedMissing = value !== AUTO_LANGUAGE && !choices.some((language) => language.code === value);
  return (
    <div className="field">
      <label htmlFor={id}>Spoken language</label>
      <select id={id} value={value} aria-describedby={`${id}-hint`} onChange={(event) => onChange(event.target.value)}>
        <option value={AUTO_LANGUAGE}>Auto-detect</option>
        {savedMissing && <option value={value}>{languageName(value, languages)}</option>}
        {choices.map((language) => (
          <option key={language.code} value={language.code}>
            {language.name}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="field-hint">
        {isError
          ? 'The list of languages could not be loaded; the saved choice is kept.'
          : 'New transcriptions are in this language. Auto-detect names each file’s language from its first speech; it needs a multilingual model (English-only “.en” models always transcribe English).'}
      </p>
    </div>
  );
}
