import { LoaderCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { GWTH_LEVELS, useGetSyllabusSectionsQuery, type LibraryTranscript, type MetadataChanges } from './libraryApi';

/** The details as the form holds them: text, with '' for none. */
interface MetadataDraft {
  title: string;
  author: string;
  level: string;
  sectionId: string;
}

/** Only what changed, as `PUT …/metadata` takes it. */
function metadataChanges(item: LibraryTranscript, draft: MetadataDraft): MetadataChanges {
  const changes: MetadataChanges = {};
  if (draft.title.trim() !== item.title) changes.title = draft.title.trim();
  if (draft.author.trim() !== (item.author ?? '')) changes.author = draft.author.trim();
  const nextLevel = draft.level === '' ? null : Number(draft.level);
  if (nextLevel !== item.gwthLevel) changes.gwthLevel = nextLevel;
  const nextSection = draft.sectionId === '' ? null : draft.sectionId;
  if (nextSection !== item.sectionId) changes.sectionId = nextSection;
  return changes;
}

/** 'Edit details': title (required), author, growth level and syllabus section. */
export function MetadataForm({
  item,
  saving,
  onSave,
  onDone,
}: {
  item: LibraryTranscript;
  saving: boolean;
  onSave: (changes: MetadataChanges) => Promise<boolean>;
  onDone: () => void;
}) {
  const baseId = useId();
  const [title, setTitle] = useState(item.title);
  const [author, setAuthor] = useState(item.author ?? '');
  const [level, setLevel] = useState(item.gwthLevel == null ? '' : String(item.gwthLevel));
  const [sectionId, setSectionId] = useState(item.sectionId ?? '');
  const titleMissing = title.trim() === '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (titleMissing) return;
    const changes = metadataChanges(item, { title, author, level, sectionId });
    if (Object.keys(changes).length === 0 || (await onSave(changes))) onDone();
  }

  return (
    <form className="vault-meta-form" aria-label="Edit details" onSubmit={(event) => void submit(event)} noValidate>
      <div className="field">
        <label htmlFor={`${baseId}-title`}>Title</label>
        <input
          id={`${baseId}-title`}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          aria-invalid={titleMissing}
          aria-describedby={titleMissing ? `${baseId}-title-error` : undefined}
        />
        {titleMissing && (
          <p id={`${baseId}-title-error`} className="field-error">
            A title is required
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${baseId}-author`}>Author</label>
        <input id={`${baseId}-author`} value={author} onChange={(event) => setAuthor(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${baseId}-level`}>Growth level</label>
        <select id={`${baseId}-level`} value={level} onChange={(event) => setLevel(event.target.value)}>
          <option value="">Not set</option>
          {GWTH_LEVELS.map(({ level: value, label }) => (
            <option key={value} value={String(value)}>
              {value} · {label}
            </option>
          ))}
        </select>
      </div>
      <SectionField id={`${baseId}-section`} sectionId={sectionId} onChange={setSectionId} />
      <div className="dialog-actions vault-meta-actions">
        <button type="button" className="btn btn-sm btn-outline" disabled={saving} onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-sm btn-primary" disabled={saving || titleMissing}>
          {saving && <LoaderCircle className="spin" size={14} aria-hidden="true" />}
          Save details
        </button>
      </div>
    </form>
  );
}

function SectionField({ id, sectionId, onChange }: { id: string; sectionId: string; onChange: (sectionId: string) => void }) {
  const { data: sections = [] } = useGetSyllabusSectionsQuery();
  return (
    <div className="field">
      <label htmlFor={id}>Section</label>
      <select id={id} value={sectionId} onChange={(event) => onChange(event.target.value)}>
        <option value="">None</option>
        {sections.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.title}
          </option>
        ))}
      </select>
    </div>
  );
}
