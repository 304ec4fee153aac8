import { Check, Copy } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { COPY_CONFIRMATION_MS, copyText } from '@/lib/clipboard';

interface CopyableSecretProps {
  /** The field's label, e.g. `Invitation link`. */
  label: ReactNode;
  value: string;
  /** What the value is, in the button (`Copy link`) and in the manual-copy hint. */
  noun: string;
  /** Shown under the field until a copy fails: how long the secret works, who may see it. */
  hint: ReactNode;
  onCopyFailed: () => void;
}

/**
 * A secret the server shows once (an invitation link, an API token, a webhook signing secret, a
 * feed URL): read-only, selected on focus, with a Copy button that confirms for
 * `COPY_CONFIRMATION_MS`. When the browser refuses to copy (plain http:// is not a secure
 * context) the text stays selected and the hint says how to copy it by hand, because closing the
 * dialog loses the secret for good.
 */
export function CopyableSecret({ label, value, noun, hint, onCopyFailed }: CopyableSecretProps) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const [manual, setManual] = useState(false);
  const ids = { field: useId(), hint: useId() };

  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    const ok = await copyText(value, field.current);
    setCopied(ok);
    setManual(!ok);
    if (!ok) onCopyFailed();
  }

  return (
    <div className="field">
      <label htmlFor={ids.field}>{label}</label>
      <div className="invitation-link">
        <input ref={field} id={ids.field} type="text" readOnly value={value} aria-describedby={ids.hint} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className={`btn btn-outline${copied ? ' copied' : ''}`} onClick={() => void copy()}>
          {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
          {copied ? 'Copied!' : `Copy ${noun}`}
        </button>
      </div>
      <p id={ids.hint} className="field-hint" aria-live="polite">
        {manual ? `The browser did not allow copying: the ${noun} is selected, copy it with Ctrl+C (or ⌘C).` : hint}
      </p>
    </div>
  );
}
