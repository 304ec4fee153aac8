import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { DoneActions } from '@/components/FormDialog';
import { COPY_CONFIRMATION_MS, copyText } from '@/lib/clipboard';

export const RECOVERY_CODES_MESSAGES = {
  keep: 'Keep them somewhere safe, apart from your phone: a password manager, or printed. Each works once; setting up two-factor sign-in again replaces them.',
  copyFailed: 'The browser did not allow copying: the codes are selected, copy them with Ctrl+C (or ⌘C).',
} as const;

/**
 * The last step of setting up two-factor sign-in: the ten recovery codes the server made, shown
 * this once (it keeps only their hashes), with Copy all. Each signs in once, in place of a code.
 */
export function RecoveryCodesStep({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const [manualCopy, setManualCopy] = useState(false);
  const text = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copyAll() {
    const ok = await copyText(codes.join('\n'), text.current);
    setCopied(ok);
    setManualCopy(!ok);
  }

  return (
    <div className="dialog-form">
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      {/* What Copy all selects when the browser refuses the clipboard. */}
      <textarea ref={text} className="visually-hidden" readOnly tabIndex={-1} aria-hidden="true" value={codes.join('\n')} />
      <p className="field-hint" aria-live="polite">
        {manualCopy ? RECOVERY_CODES_MESSAGES.copyFailed : RECOVERY_CODES_MESSAGES.keep}
      </p>
      <button type="button" className={`btn btn-outline${copied ? ' copied' : ''}`} onClick={() => void copyAll()}>
        {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
        {copied ? 'Copied!' : 'Copy all'}
      </button>
      <DoneActions />
    </div>
  );
}
