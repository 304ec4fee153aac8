import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ErrorBody } from './types';

/**
 * An error body as it may arrive: the gateway's `{"error": {"message", "code"}}` (ErrorBody), or
 * a proxy's `{"message"}`; nothing in it is trusted.
 */
type ApiErrorBody = { error?: Partial<ErrorBody['error']>; message?: string };

/** The `error.message` (or top-level `message`) of an error body, null when it has none. */
export function serverMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const { error, message } = body as ApiErrorBody;
  if (error && typeof error === 'object' && typeof error.message === 'string' && error.message.trim()) {
    return error.message;
  }
  if (typeof message === 'string' && message.trim()) return message;
  return null;
}

/** The server's error.message when there is one, else the spec's fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  if (!error || typeof error !== 'object') return fallback;
  const candidate = error as Partial<FetchBaseQueryError> & Partial<SerializedError> & { body?: unknown };
  if ('data' in candidate) {
    const fromBody = serverMessage(candidate.data);
    if (fromBody) return fromBody;
  }
  if ('body' in candidate) {
    const fromBody = serverMessage(candidate.body);
    if (fromBody) return fromBody;
  }
  return fallback;
}
