/**
 * Browser storage helpers that never throw: storage may be full, disabled, or hold data
 * written by an older version of the app.
 */
type StorageKind = 'local' | 'session';

function area(kind: StorageKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readJson<T>(kind: StorageKind, key: string): T | null {
  const raw = area(kind)?.getItem(key);
  if (raw === null || raw === undefined) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(kind: StorageKind, key: string, value: unknown): void {
  try {
    area(kind)?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: the app keeps working without persistence.
  }
}

export function readString(kind: StorageKind, key: string): string | null {
  return area(kind)?.getItem(key) ?? null;
}

export function writeString(kind: StorageKind, key: string, value: string): void {
  try {
    area(kind)?.setItem(key, value);
  } catch {
    // See writeJson.
  }
}

export function removeKey(kind: StorageKind, key: string): void {
  area(kind)?.removeItem(key);
}

/** Session-storage keys used to hand data from one screen to the next (docs/product-spec.md §3). */
export const HANDOFF_KEYS = {
  selectedVideos: 'selectedVideos',
  videosToTranscribe: 'videosToTranscribe',
  mp3Files: 'mp3Files',
  transcripts: 'transcripts',
} as const;
