import { sessionExpired } from '@/api/apiEvents';
import type { Envelope } from '@/api/baseApi';
import { errorMessage } from '@/api/errors';
import { uploadWithProgress } from '@/api/xhrUpload';
import type { AppDispatch } from '@/app/store';
import type { SelectedVideo } from './uploadItems';

export interface UploadedMp3 {
  mp3Path: string;
  title: string;
  size: number;
}

export type UploadOutcome = { ok: true; data: UploadedMp3 } | { ok: false; message: string };

/**
 * POST /api/video-mp3/upload (multipart `mp3`, `title`), or /api/video-mp3/upload/{videoId} with
 * the video's channelTitle, duration and publishedAt, with real upload progress.
 */
export async function uploadMp3(
  file: File,
  title: string,
  video: SelectedVideo | null,
  dispatch: AppDispatch,
  onProgress: (percent: number) => void,
): Promise<UploadOutcome> {
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
    const result = await uploadWithProgress<Envelope<UploadedMp3>>({
      url,
      form,
      onProgress,
      onUnauthorized: () => dispatch(sessionExpired()),
    });
    if (result.ok && result.body?.data?.mp3Path) return { ok: true, data: result.body.data };
    return { ok: false, message: errorMessage({ data: result.body }, 'Upload failed') };
  } catch {
    return { ok: false, message: 'Upload failed' };
  }
}
