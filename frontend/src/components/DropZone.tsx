import { UploadCloud } from 'lucide-react';
import { useId, useState, type DragEvent, type ReactNode } from 'react';

interface DropZoneProps {
  /** What the zone takes, for screen readers ("MP3 drop zone"). */
  label: string;
  title: string;
  hint: string;
  /** The file input's `accept`. */
  accept: string;
  /** The content of the button that opens the file chooser. */
  chooseLabel: ReactNode;
  /** Files dropped or chosen; the caller refuses what it does not take. */
  onFiles: (files: FileList | null) => void;
  disabled: boolean;
  compact?: boolean;
  testId?: string;
}

/** A drop target with a file chooser beside it, for the screens that take several files. */
export function DropZone({ label, title, hint, accept, chooseLabel, onFiles, disabled, compact = false, testId = 'dropzone' }: DropZoneProps) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!disabled) onFiles(event.dataTransfer.files);
  }

  return (
    <section
      className={`dropzone${compact ? ' dropzone-compact' : ''}${dragging ? ' dragging' : ''}`}
      data-testid={testId}
      aria-label={label}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <span className="dropzone-icon" aria-hidden="true">
        <UploadCloud size={compact ? 28 : 32} />
      </span>
      <p className="dropzone-title">{title}</p>
      <p className="muted">{hint}</p>
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept={accept}
        multiple
        disabled={disabled}
        onChange={(event) => {
          onFiles(event.target.files);
          event.target.value = '';
        }}
      />
      <label htmlFor={inputId} className={`btn btn-outline${disabled ? ' disabled' : ''}`}>
        {chooseLabel}
      </label>
    </section>
  );
}
