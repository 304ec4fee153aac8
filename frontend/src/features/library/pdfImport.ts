import type { UnknownAction } from '@reduxjs/toolkit';
import { sessionExpiredBy } from '@/api/apiEvents';
import { errorMessage } from '@/api/errors';
import type { Schema } from '@/api/types';
import { uploadWithProgress } from '@/api/xhrUpload';

/**
 * PDF import for the Vault: `POST /api/convert/pdf` (docs/conversion-settings-api.md), one file a
 * call through XMLHttpRequest for its upload progress (api/xhrUpload.ts, as the MP3 uploads do).
 */

/** What the server made of one PDF. */
/** `ocrPages`: pages without a text layer (scans); their text is missing until OCR is asked for. */
export type PdfConversion = Schema<'PdfView'>;

export type PdfUploadOutcome = { ok: true; data: PdfConversion } | { ok: false; message: string };

export const PDF_IMPORT_ERRORS = {
  convert: 'Failed to convert PDF',
  network: 'Upload failed',
  notPdf: 'Only PDF files can be imported',
} as const;

/**
 * Texts for answers that carry no message of their own. The contract names 413 and 507 without a
 * body text; the server's message, when there is one, always comes first.
 */
const MESSAGE_BY_STATUS: Record<number, string> = {
  413: 'This PDF is larger than the server accepts',
  507: 'Storage limit reached',
};

/** A PDF is a file of type application/pdf or whose name ends .pdf. */
export function isPdfFile(file: File): boolean {
  return file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf');
}

export async function uploadPdf({
  file,
  template,
  dispatch,
  onProgress,
}: {
  file: File;
  /** A template body; empty for the server's default layout. */
  template: string;
  dispatch: (action: UnknownAction) => unknown;
  onProgress: (percent: number) => void;
}): Promise<PdfUploadOutcome> {
  const form = new FormData();
  form.append('pdf', file, file.name);
  if (template.trim()) form.append('template', template);
  try {
    const result = await uploadWithProgress<Schema<'Envelope_PdfView'>>({
      url: '/api/convert/pdf',
      form,
      onProgress,
      onUnauthorized: (body) => dispatch(sessionExpiredBy(body)),
    });
    const data = result.body?.data;
    if (result.ok && data && typeof data.content === 'string' && data.markdownPath) {
      return { ok: true, data: { ...data, ocrPages: Array.isArray(data.ocrPages) ? data.ocrPages : [] } };
    }
    const fallback = MESSAGE_BY_STATUS[result.status] ?? PDF_IMPORT_ERRORS.convert;
    return { ok: false, message: errorMessage({ data: result.body }, fallback) };
  } catch {
    return { ok: false, message: PDF_IMPORT_ERRORS.network };
  }
}

/** 'Pages 3, 4 have no text layer; use Premium OCR after saving' (or 'Page 3 has …'). */
export function ocrNotice(pages: number[]): string {
  const one = pages.length === 1;
  return `${one ? 'Page' : 'Pages'} ${pages.join(', ')} ${one ? 'has' : 'have'} no text layer; use Premium OCR after saving`;
}
