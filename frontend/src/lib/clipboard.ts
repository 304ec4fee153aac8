/**
 * Copies `text` to the clipboard. `navigator.clipboard` needs a secure context (https or
 * localhost), which a self-hosted instance on a plain http:// address is not; then the text of
 * `field` (an input that shows it) is selected and copied with the older copy command. Returns
 * whether it worked; when it did not, the field's text is left selected for a manual copy.
 */
export async function copyText(text: string, field?: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (typeof navigator.clipboard?.writeText === 'function') {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (permissions, insecure context): try the fallback.
  }
  if (!field) return false;
  try {
    field.focus();
    field.select();
    // Deprecated, but the one way left to copy outside a secure context.
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

/** How long a 'Copied' confirmation stays (docs/product-spec.md §9: 2 s). */
export const COPY_CONFIRMATION_MS = 2000;
