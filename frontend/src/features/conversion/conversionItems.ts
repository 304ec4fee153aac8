import type { Schema } from '@/api/types';
import { HANDOFF_KEYS, readJson } from '@/lib/storage';

/**
 * The convert screen's rows (docs/product-spec.md §3 "Conversion item", §4 states) and the rules that move them.
 * Pure functions, so the screen and the tests share them.
 */
export type ConversionStatus = 'pending' | 'converting' | 'completed' | 'error';

export interface ConversionItem {
  id: string;
  title: string;
  transcriptPath: string;
  status: ConversionStatus;
  /**
   * 0 pending, 50 while the row's request is out, 100 converted. The server converts a batch in
   * one answer, so there is nothing finer to show.
   */
  progress: number;
  markdownPath: string | null;
  markdownContent: string | null;
  errorMessage: string | null;
  /** Set once the row was saved with POST /vault/save, so it is not saved twice. */
  savedToVault: boolean;
}

/** What a hand-off entry must have: `{id, title, transcriptPath}` (docs/product-spec.md §3). */
interface HandedOverTranscript {
  id: string;
  title: string;
  transcriptPath: string;
}

/**
 * The transcripts handed over in session storage under `transcripts`. The transcription screen
 * keeps its whole file list there (every row has id, title and, once done, transcriptPath), so
 * only rows with a transcript count: entries with a `status` must be completed, bare
 * `{id, title, transcriptPath}` entries are taken as they are.
 */
export function readHandedOverTranscripts(): ConversionItem[] {
  const stored = readJson<unknown>('session', HANDOFF_KEYS.transcripts);
  if (!Array.isArray(stored)) return [];
  const seen = new Set<string>();
  const items: ConversionItem[] = [];
  for (const entry of stored as unknown[]) {
    const transcript = asHandedOverTranscript(entry);
    if (!transcript || seen.has(transcript.id)) continue;
    seen.add(transcript.id);
    items.push(newConversionItem(transcript));
  }
  return items;
}

function asHandedOverTranscript(entry: unknown): HandedOverTranscript | null {
  if (!entry || typeof entry !== 'object') return null;
  const candidate = entry as Record<string, unknown>;
  const { id, title, transcriptPath, status } = candidate;
  if (typeof id !== 'string' || !id || typeof transcriptPath !== 'string' || !transcriptPath.trim()) return null;
  if (status !== undefined && status !== 'completed') return null;
  const name = typeof title === 'string' && title.trim() ? title.trim() : (transcriptPath.split('/').pop() ?? transcriptPath);
  return { id, title: name, transcriptPath };
}

export function newConversionItem({ id, title, transcriptPath }: HandedOverTranscript): ConversionItem {
  return {
    id,
    title,
    transcriptPath,
    status: 'pending',
    progress: 0,
    markdownPath: null,
    markdownContent: null,
    errorMessage: null,
    savedToVault: false,
  };
}

/** The rows Convert sends: pending and failed ones, or, when every row is done, all of them again. */
export function rowsToConvert(items: ConversionItem[]): ConversionItem[] {
  const open = items.filter((item) => item.status === 'pending' || item.status === 'error');
  if (open.length > 0) return open;
  return items.every((item) => item.status === 'completed') ? items : [];
}

export function markConverting(items: ConversionItem[], ids: ReadonlySet<string>): ConversionItem[] {
  return items.map((item) =>
    ids.has(item.id)
      ? { ...item, status: 'converting', progress: 50, errorMessage: null, markdownPath: null, markdownContent: null, savedToVault: false }
      : item,
  );
}

export type BatchAnswer = Schema<'MarkdownBatchView'>;

/** Message of a row the server answered neither in `results` nor in `failed`. */
export const NO_ANSWER_MESSAGE = 'The server did not convert this transcript';

/** Applies one batch answer to the rows that were sent (`ids`). */
export function applyBatchAnswer(items: ConversionItem[], ids: ReadonlySet<string>, answer: BatchAnswer): ConversionItem[] {
  const results = new Map(answer.results.map((result) => [result.id, result]));
  const failures = new Map(answer.failed.map((failure) => [failure.id, failure.message]));
  return items.map((item) => {
    if (!ids.has(item.id)) return item;
    const result = results.get(item.id);
    if (result) {
      return { ...item, status: 'completed', progress: 100, markdownPath: result.markdownPath, markdownContent: result.content, errorMessage: null };
    }
    return { ...item, status: 'error', progress: 0, errorMessage: failures.get(item.id) || NO_ANSWER_MESSAGE };
  });
}

/** A failed batch call: every row that was sent fails with the call's message. */
export function markFailed(items: ConversionItem[], ids: ReadonlySet<string>, message: string): ConversionItem[] {
  return items.map((item) => (ids.has(item.id) ? { ...item, status: 'error', progress: 0, errorMessage: message } : item));
}

/** Rows still converting when a run stops go back to pending. */
export function settleConverting(items: ConversionItem[]): ConversionItem[] {
  return items.map((item) => (item.status === 'converting' ? { ...item, status: 'pending', progress: 0 } : item));
}

export function markSaved(items: ConversionItem[], ids: ReadonlySet<string>): ConversionItem[] {
  return items.map((item) => (ids.has(item.id) ? { ...item, savedToVault: true } : item));
}

/** Placeholders of `template` that the server does not know ({{title}} etc. are known), in order. */
export function unknownPlaceholdersIn(template: string): string[] {
  const known = new Set(['title', 'content', 'date', 'source']);
  const found: string[] = [];
  for (const match of template.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    const name = match[1];
    if (!known.has(name) && !found.includes(name)) found.push(name);
  }
  return found;
}

/** A file name for a row's markdown: its title, without characters file systems refuse. */
export function markdownFileName(title: string): string {
  const printable = [...title].filter((char) => char.charCodeAt(0) >= 32).join('');
  const base = printable.replace(/[\\/:*?"<>|]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120);
  return `${base || 'transcript'}.md`;
}

export function chunk<T>(list: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < list.length; index += size) chunks.push(list.slice(index, index + size));
  return chunks;
}
