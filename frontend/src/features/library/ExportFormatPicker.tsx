import { Download, LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { EXPORT_FORMAT_LABELS, exportFormatsFor, type ExportFormat } from './libraryApi';

/**
 * The formats the given items can be exported in and the one chosen (markdown until another is
 * picked, and again when the choice is no longer offered, e.g. a non-audio item joined the selection).
 */
export function useExportFormat(sourceTypes: ReadonlyArray<string | null>) {
  const formats = exportFormatsFor(sourceTypes);
  const [chosen, setChosen] = useState<ExportFormat>('markdown');
  const format = formats.includes(chosen) ? chosen : 'markdown';
  return { formats, format, choose: setChosen };
}

/** A format select (its label visually hidden) and the button that exports in it. */
export function ExportFormatPicker({
  label,
  formats,
  format,
  onChoose,
  buttonLabel,
  busy,
  onExport,
}: {
  label: string;
  formats: ExportFormat[];
  format: ExportFormat;
  onChoose: (format: ExportFormat) => void;
  buttonLabel: string;
  busy: boolean;
  onExport: () => void;
}) {
  const formatId = useId();
  return (
    <>
      <label htmlFor={formatId} className="visually-hidden">
        {label}
      </label>
      <select id={formatId} className="select-sm" value={format} onChange={(event) => onChoose(event.target.value as ExportFormat)}>
        {formats.map((candidate) => (
          <option key={candidate} value={candidate}>
            {EXPORT_FORMAT_LABELS[candidate]}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn-sm btn-primary" disabled={busy} onClick={onExport}>
        {busy ? <LoaderCircle className="spin" size={14} aria-hidden="true" /> : <Download size={14} aria-hidden="true" />}
        {buttonLabel}
      </button>
    </>
  );
}
