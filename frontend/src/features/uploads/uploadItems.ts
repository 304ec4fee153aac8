import { isMp3File } from '@/api/mp3Upload';

/** Client state of the bulk upload screen. Files are not serialisable, so this stays out of Redux. */
export type UploadStatus = 'pending' | 'uploading' | 'completed' | 'error';

/** A video chosen on the discovery screen (sessionStorage `selectedVideos`). */
export interface SelectedVideo {
  youtubeVideoId: string;
  title: string;
  channelTitle?: string;
  /** Seconds. */
  duration?: number;
  publishedAt?: string;
  url?: string;
}

export interface UploadItem {
  id: string;
  file: File;
  /** The video this MP3 belongs to, when it was attached to a selected video. */
  video: SelectedVideo | null;
  /** File name without .mp3. */
  title: string;
  size: number;
  status: UploadStatus;
  progress: number;
  mp3Path: string | null;
  errorMessage: string | null;
}

export const MAX_FILES_PER_SELECTION = 100;
export const UPLOAD_BATCH_SIZE = 5;

export const MESSAGES = {
  mp3Only: 'Please select MP3 files only',
  tooMany: `Maximum ${MAX_FILES_PER_SELECTION} files allowed at once`,
  nothingToUpload: 'No MP3 files to upload',
  rowFailed: 'Upload failed',
  overallFailed: 'Failed to upload files',
} as const;

export const isMp3 = isMp3File;

export function titleFromFileName(name: string): string {
  return name.replace(/\.mp3$/i, '');
}

export function newUploadItem(file: File, video: SelectedVideo | null = null): UploadItem {
  return {
    id: crypto.randomUUID(),
    file,
    video,
    title: video?.title ?? titleFromFileName(file.name),
    size: file.size,
    status: 'pending',
    progress: 0,
    mp3Path: null,
    errorMessage: null,
  };
}

export type UploadAction =
  | { type: 'added'; items: UploadItem[] }
  | { type: 'removed'; id: string }
  | { type: 'started'; id: string }
  | { type: 'progressed'; id: string; progress: number }
  | { type: 'succeeded'; id: string; mp3Path: string }
  | { type: 'failed'; id: string; message: string }
  | { type: 'clearedAll' };

export function uploadItemsReducer(items: UploadItem[], action: UploadAction): UploadItem[] {
  const update = (id: string, change: Partial<UploadItem>) =>
    items.map((item) => (item.id === id ? { ...item, ...change } : item));
  switch (action.type) {
    case 'added':
      return [...items, ...action.items];
    case 'removed':
      // Remove is disabled while uploading; the reducer enforces it too.
      return items.filter((item) => item.id !== action.id || item.status === 'uploading');
    case 'started':
      return update(action.id, { status: 'uploading', progress: 0, errorMessage: null });
    case 'progressed':
      return update(action.id, { progress: Math.max(0, Math.min(100, action.progress)) });
    case 'succeeded':
      return update(action.id, { status: 'completed', progress: 100, mp3Path: action.mp3Path });
    case 'failed':
      return update(action.id, { status: 'error', progress: 0, errorMessage: action.message });
    case 'clearedAll':
      return items.filter((item) => item.status === 'uploading');
    default:
      return items;
  }
}

/**
 * The overall bar's value, 0-100: the share of the selection uploaded so far. A failed file counts
 * as not uploaded (0), whatever its progress was when it failed; so 2 done + 1 failed of 3 is 66.7.
 */
export function overallProgress(items: readonly Pick<UploadItem, 'status' | 'progress'>[]): number {
  if (items.length === 0) return 0;
  return items.reduce((sum, item) => sum + (item.status === 'error' ? 0 : item.progress), 0) / items.length;
}

/** Splits a list into consecutive batches of `size`. */
export function inBatches<T>(list: T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let index = 0; index < list.length; index += size) batches.push(list.slice(index, index + size));
  return batches;
}

/** Reads the discovery screen's selection, ignoring anything malformed. */
export function parseSelectedVideos(raw: unknown): SelectedVideo[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (video): video is SelectedVideo =>
      Boolean(video) && typeof (video as SelectedVideo).youtubeVideoId === 'string' && typeof (video as SelectedVideo).title === 'string',
  );
}
