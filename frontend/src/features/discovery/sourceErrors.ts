import { httpStatusOf } from './discoveryApi';

interface SourceErrorBody {
  error?: { title?: unknown; message?: unknown } | string | null;
  title?: unknown;
  message?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

function bodyOf(error: unknown): SourceErrorBody | null {
  const data = (error as { data?: unknown } | null)?.data;
  return data && typeof data === 'object' ? data : null;
}

/**
 * The message of a failed create or delete (docs/product-spec.md §8): the body's error title, then its message,
 * then a top-level message, then `fallback`.
 */
export function sourceChangeErrorMessage(error: unknown, fallback: string): string {
  const body = bodyOf(error);
  const inner = body?.error && typeof body.error === 'object' ? body.error : null;
  return text(inner?.title) ?? text(inner?.message) ?? text(body?.message) ?? fallback;
}

/**
 * The message of a failed list fetch (docs/product-spec.md §8): the server's message, else 'HTTP error! status:
 * {code}' for an answer that was not OK, else 'Failed to fetch sources' (no answer at all).
 */
export function sourcesFetchErrorMessage(error: unknown): string {
  const body = bodyOf(error);
  const inner = body?.error && typeof body.error === 'object' ? body.error : null;
  const fromServer = text(inner?.message) ?? text(body?.message);
  if (fromServer) return fromServer;
  const status = httpStatusOf(error);
  return status !== null ? `HTTP error! status: ${status}` : 'Failed to fetch sources';
}
