import { Languages } from 'lucide-react';
import { languageName, useGetTranscriptionLanguagesQuery } from '@/api/languagesApi';

/** The name of the language `code` (a Whisper code); `null` while there is no code. */
export function useLanguageName(code: string | null | undefined): string | null {
  const { data: languages } = useGetTranscriptionLanguagesQuery(undefined, { skip: !code });
  return code ? languageName(code, languages) : null;
}

/** The language an AUDIO item's transcript is in, by name ('German'); nothing when not known. */
export function LanguageBadge({ code }: { code: string | null | undefined }) {
  const name = useLanguageName(code);
  if (!name) return null;
  return (
    <span className="badge badge-neutral language-badge" data-testid="item-language">
      <Languages size={12} aria-hidden="true" /> {name}
      <span className="visually-hidden"> transcript</span>
    </span>
  );
}
