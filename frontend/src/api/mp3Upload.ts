import type { UnknownAction } from '@reduxjs/toolkit';
import { sessionExpiredBy } from './apiEvents';
import { errorMessage } from './errors';
import type { Schema } from './types';
import { uploadWithProgress } from './xhrUpload';

/**
 * MP3 uploads with real progress, shared by the bulk upload screen and Find Videos (both attach
 * MP3s to videos), so they live here rather than in one feature.
 */

/** The video an MP3 belongs to: the fields `POST /api/video-mp3/upload/{videoId}` takes. */
export type VideoForUpload = Pick<Schema<'UploadForm'>, 'channelTitle' | 'duration' | 'publishedAt'> & {
  youtubeVideoId: string;
};

export type UploadedMp3 = Schema<'UploadView'>;

export type UploadOutcome = { ok: true; data: UploadedMp3 } | { ok: false; message: string };

export interface UploadMp3Options {
  file: File;
  title: string;
  /** The video the file belongs to; without one the upload is a manual upload. */
  video: VideoForUpload | null;
  dispatch: (action: UnknownAction) => unknown;
  onProgress: (percent: number) => void;
  /** The text shown when the server gives no message ('Upload failed' on bulk rows). */
  fallbackMessage?: string;
}

/**
 * POST /api/video-mp3/upload (multipart `mp3`, `title`), or /api/video-mp3/upload/{videoId} with
 * the video's channelTitle, duration and publishedAt. A 401 signs the user out.
 */
export async function uploadMp3({
  file,
  title,
  video,
  dispatch,
  onProgress,
  fallbackMessage = 'Upload failed',
}: UploadMp3Options): Promise<UploadOutcome> {
  const form = new FormData();
  form.append('mp3', file, file.name);
  form.append('title', title);
  if (video) {
    form.append('channelTitle', video.channelTitle ?? '');
    form.append('duration', String(video.duration ?? 0));
    form.append('publishedAt', video.publishedAt ?? '');
  }
  const url = video ? `/api/video-mp3/upload/${encodeURIComponent(video.youtubeVideoId)}` : '/api/video-mp3/upload';
  try {
    const result = await uploadWithProgress<Schema<'Envelope_UploadView'>>({
      url,
      form,
      onProgress,
      onUnauthorized: (body) => dispatch(sessionExpiredBy(body)),
    });
    if (result.ok && result.body?.data?.mp3Path) return { ok: true, data: result.body.data };
    return { ok: false, message: errorMessage({ data: result.body }, fallbackMessage) };
  } catch {
    return { ok: false, message: fallbackMessage };
  }
}

/** An MP3 is a file of type audio/mpeg or whose name ends .mp3 (docs/product-spec.md §5). */
export function isMp3File(file: File): boolean {
  return file.type === 'audio/mpeg' || file.name.toLowerCase().endsWith('.mp3');
}
