import { LoaderCircle, Plus, Save, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import {
  DEFAULT_TEMPLATE_BODY,
  TEMPLATE_BODY_MAX_BYTES,
  TEMPLATE_NAME_MAX,
  TEMPLATE_PLACEHOLDERS,
  type ConvertTemplate,
} from '@/api/convertTemplatesApi';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { unknownPlaceholdersIn } from './conversionItems';
import { useConvertTemplates } from './useConvertTemplates';

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/**
 * The optional custom template of the convert screen: free text with the placeholders of docs/product-spec.md §5,
 * plus the user's named templates (`/api/convert/templates`) to pick, save, update and delete.
 * An empty template means the server's default layout.
 */
export function TemplateEditor({ template, onChange }: { template: string; onChange: (template: string) => void }) {
  const bodyId = useId();
  const tooLong = byteLength(template) > TEMPLATE_BODY_MAX_BYTES;
  const canStore = template.trim() !== '' && !tooLong;
  const saved = useConvertTemplates(template, canStore, onChange);
  const { selected, busy, naming } = saved;

  return (
    <section className="card" aria-labelledby={`${bodyId}-heading`}>
      <div className="card-header">
        <h2 id={`${bodyId}-heading`} className="card-title">
          Template <span className="muted card-title-note">(optional)</span>
        </h2>
      </div>
      <div className="card-body template-editor">
        <div className="template-picker">
          <TemplatePicker templates={saved.templates} selectedId={saved.selectedId} loadError={saved.loadError} onPick={saved.pick} />
          <div className="button-row wrap template-actions">
            {selected && (
              <>
                <button
                  type="button"
                  className="btn btn-sm btn-outline"
                  disabled={busy || !canStore || template === selected.body}
                  onClick={() => void saved.saveChanges()}
                >
                  <Save size={14} aria-hidden="true" /> Update “{selected.name}”
                </button>
                <button type="button" className="btn btn-sm btn-danger-outline" disabled={busy} onClick={() => saved.setConfirmingDelete(true)}>
                  <Trash2 size={14} aria-hidden="true" /> Delete
                </button>
              </>
            )}
            {!naming && (
              <button type="button" className="btn btn-sm btn-outline" disabled={busy || !canStore} onClick={() => saved.setNaming(true)}>
                <Plus size={14} aria-hidden="true" /> Save as template
              </button>
            )}
          </div>
        </div>

        {naming && (
          <TemplateNameForm
            busy={busy}
            creating={saved.creating}
            canStore={canStore}
            onSave={(name) => void saved.saveNew(name)}
            onCancel={() => saved.setNaming(false)}
          />
        )}

        <TemplateBodyField id={bodyId} template={template} tooLong={tooLong} onChange={onChange} />
      </div>
      {saved.confirmingDelete && selected && (
        <ConfirmDialog
          title="Delete template?"
          description={`“${selected.name}” will be deleted. Files already converted with it stay as they are.`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={saved.deleting}
          onConfirm={() => void saved.remove()}
          onClose={() => saved.setConfirmingDelete(false)}
        />
      )}
    </section>
  );
}

interface TemplatePickerProps {
  templates: ConvertTemplate[];
  selectedId: string;
  loadError: string | null;
  onPick: (id: string) => void;
}

function TemplatePicker({ templates, selectedId, loadError, onPick }: TemplatePickerProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Saved templates</label>
      <select id={id} value={selectedId} onChange={(event) => onPick(event.target.value)}>
        <option value="">{templates.length === 0 ? 'No saved templates' : 'None (write one below)'}</option>
        {templates.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.name}
          </option>
        ))}
      </select>
      {loadError !== null && <p className="field-error">{loadError}</p>}
    </div>
  );
}

interface TemplateNameFormProps {
  busy: boolean;
  creating: boolean;
  canStore: boolean;
  onSave: (name: string) => void;
  onCancel: () => void;
}

/** 'Save as template': the name the text is saved under. */
function TemplateNameForm({ busy, creating, canStore, onSave, onCancel }: TemplateNameFormProps) {
  const id = useId();
  const [name, setName] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    onSave(name);
  }

  return (
    <form className="template-name-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>Template name</label>
        <input id={id} value={name} maxLength={TEMPLATE_NAME_MAX} autoComplete="off" onChange={(event) => setName(event.target.value)} />
      </div>
      <div className="button-row">
        <button type="button" className="btn btn-sm btn-outline" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-sm btn-primary" disabled={busy || !name.trim() || !canStore}>
          {creating && <LoaderCircle className="spin" size={14} aria-hidden="true" />} Save template
        </button>
      </div>
    </form>
  );
}

interface TemplateBodyFieldProps {
  id: string;
  template: string;
  tooLong: boolean;
  onChange: (template: string) => void;
}

/** The template text, the placeholders it may use, and what is wrong with it. */
function TemplateBodyField({ id, template, tooLong, onChange }: TemplateBodyFieldProps) {
  const ids = { help: useId(), unknown: useId() };
  const unknown = unknownPlaceholdersIn(template);
  return (
    <div className="field">
      <label htmlFor={id}>Custom template</label>
      <textarea
        id={id}
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
  );
}
