import { LoaderCircle, Plus, Save, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import {
  DEFAULT_TEMPLATE_BODY,
  TEMPLATE_BODY_MAX_BYTES,
  TEMPLATE_ERRORS,
  TEMPLATE_NAME_MAX,
  TEMPLATE_PLACEHOLDERS,
  useCreateConvertTemplateMutation,
  useDeleteConvertTemplateMutation,
  useGetConvertTemplatesQuery,
  useUpdateConvertTemplateMutation,
} from '@/api/convertTemplatesApi';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { showToast, useErrorToast } from '@/lib/toast';
import { unknownPlaceholdersIn } from './conversionItems';

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/**
 * The optional custom template of the convert screen: free text with the placeholders of docs/product-spec.md §5,
 * plus the user's named templates (`/api/convert/templates`) to pick, save, update and delete.
 * An empty template means the server's default layout.
 */
export function TemplateEditor({ template, onChange }: { template: string; onChange: (template: string) => void }) {
  const dispatch = useAppDispatch();
  const ids = { picker: useId(), body: useId(), help: useId(), unknown: useId(), name: useId() };
  const { data: templates = [], isError, error } = useGetConvertTemplatesQuery();
  const [selectedId, setSelectedId] = useState('');
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [createTemplate, createState] = useCreateConvertTemplateMutation();
  const [updateTemplate, updateState] = useUpdateConvertTemplateMutation();
  const [deleteTemplate, deleteState] = useDeleteConvertTemplateMutation();
  const selected = templates.find((candidate) => candidate.id === selectedId) ?? null;
  const busy = createState.isLoading || updateState.isLoading || deleteState.isLoading;
  const unknown = unknownPlaceholdersIn(template);
  const tooLong = byteLength(template) > TEMPLATE_BODY_MAX_BYTES;
  const canStore = template.trim() !== '' && !tooLong;

  const failed = useErrorToast();

  /** A saved template replaces the text; 'None' only lets go of the saved one and keeps the text. */
  function pick(id: string) {
    setSelectedId(id);
    const chosen = templates.find((candidate) => candidate.id === id);
    if (chosen) onChange(chosen.body);
  }

  async function saveNew(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || !canStore) return;
    try {
      const created = await createTemplate({ name: trimmed, body: template }).unwrap();
      setSelectedId(created.id);
      setNaming(false);
      setName('');
      dispatch(showToast({ title: 'Template saved', description: created.name, variant: 'success' }));
    } catch (failure) {
      failed(failure, TEMPLATE_ERRORS.save);
    }
  }

  async function saveChanges() {
    if (!selected || !canStore) return;
    try {
      await updateTemplate({ id: selected.id, name: selected.name, body: template }).unwrap();
      dispatch(showToast({ title: 'Template updated', description: selected.name, variant: 'success' }));
    } catch (failure) {
      failed(failure, TEMPLATE_ERRORS.save);
    }
  }

  async function remove() {
    if (!selected) return;
    try {
      await deleteTemplate(selected.id).unwrap();
      setConfirmingDelete(false);
      setSelectedId('');
      dispatch(showToast({ title: 'Template deleted', description: selected.name, variant: 'success' }));
    } catch (failure) {
      setConfirmingDelete(false);
      failed(failure, TEMPLATE_ERRORS.delete);
    }
  }

  return (
    <section className="card" aria-labelledby={`${ids.body}-heading`}>
      <div className="card-header">
        <h2 id={`${ids.body}-heading`} className="card-title">
          Template <span className="muted card-title-note">(optional)</span>
        </h2>
      </div>
      <div className="card-body template-editor">
        <div className="template-picker">
          <div className="field">
            <label htmlFor={ids.picker}>Saved templates</label>
            <select id={ids.picker} value={selectedId} onChange={(event) => pick(event.target.value)}>
              <option value="">{templates.length === 0 ? 'No saved templates' : 'None (write one below)'}</option>
              {templates.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </select>
            {isError && <p className="field-error">{errorMessage(error, TEMPLATE_ERRORS.fetch)}</p>}
          </div>
          <div className="button-row wrap template-actions">
            {selected && (
              <>
                <button
                  type="button"
                  className="btn btn-sm btn-outline"
                  disabled={busy || !canStore || template === selected.body}
                  onClick={() => void saveChanges()}
                >
                  <Save size={14} aria-hidden="true" /> Update “{selected.name}”
                </button>
                <button type="button" className="btn btn-sm btn-danger-outline" disabled={busy} onClick={() => setConfirmingDelete(true)}>
                  <Trash2 size={14} aria-hidden="true" /> Delete
                </button>
              </>
            )}
            {!naming && (
              <button type="button" className="btn btn-sm btn-outline" disabled={busy || !canStore} onClick={() => setNaming(true)}>
                <Plus size={14} aria-hidden="true" /> Save as template
              </button>
            )}
          </div>
        </div>

        {naming && (
          <form className="template-name-form" onSubmit={(event) => void saveNew(event)}>
            <div className="field">
              <label htmlFor={ids.name}>Template name</label>
              <input
                id={ids.name}
                value={name}
                maxLength={TEMPLATE_NAME_MAX}
                autoComplete="off"
                onChange={(event) => setName(event.target.value)}
              />
            </div>
            <div className="button-row">
              <button type="button" className="btn btn-sm btn-outline" disabled={busy} onClick={() => setNaming(false)}>
                Cancel
              </button>
              <button type="submit" className="btn btn-sm btn-primary" disabled={busy || !name.trim() || !canStore}>
                {createState.isLoading && <LoaderCircle className="spin" size={14} aria-hidden="true" />} Save template
              </button>
            </div>
          </form>
        )}

        <div className="field">
          <label htmlFor={ids.body}>Custom template</label>
          <textarea
            id={ids.body}
            className="template-body"
            rows={7}
            value={template}
            placeholder={DEFAULT_TEMPLATE_BODY}
            spellCheck={false}
            aria-describedby={`${ids.help}${unknown.length > 0 ? ` ${ids.unknown}` : ''}`}
            aria-invalid={tooLong || undefined}
            onChange={(event) => onChange(event.target.value)}
          />
          <div id={ids.help} className="field-hint template-help">
            <p>Leave it empty for the default layout (shown greyed in the box). Placeholders:</p>
            <ul className="placeholder-list">
              {TEMPLATE_PLACEHOLDERS.map((placeholder) => (
                <li key={placeholder.name}>
                  <code>{`{{${placeholder.name}}}`}</code> {placeholder.meaning}
                </li>
              ))}
            </ul>
          </div>
          {unknown.length > 0 && (
            <p id={ids.unknown} className="field-warning">
              Not a placeholder, kept as written: {unknown.map((placeholder) => `{{${placeholder}}}`).join(', ')}
            </p>
          )}
          {tooLong && <p className="field-error">A template is at most 64 KB.</p>}
        </div>
      </div>
      {confirmingDelete && selected && (
        <ConfirmDialog
          title="Delete template?"
          description={`“${selected.name}” will be deleted. Files already converted with it stay as they are.`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={deleteState.isLoading}
          onConfirm={() => void remove()}
          onClose={() => setConfirmingDelete(false)}
        />
      )}
    </section>
  );
}
