import { useCallback, useReducer, useState, type Dispatch } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useNavigate } from 'react-router';
import { baseApi } from '@/api/baseApi';
import { useGetMp3StatusForVideosQuery } from '@/api/mp3Api';
import { uploadMp3 } from '@/api/mp3Upload';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { HANDOFF_KEYS, readJson, writeJson } from '@/lib/storage';
import { errorToast, showToast } from '@/lib/toast';
import {
  MAX_FILES_PER_SELECTION,
  MESSAGES,
  UPLOAD_BATCH_SIZE,
  inBatches,
  isMp3,
  newUploadItem,
  parseSelectedVideos,
  uploadItemsReducer,
  type SelectedVideo,
  type UploadAction,
  type UploadItem,
} from './uploadItems';

type SetMessage = Dispatch<string | null>;

/**
 * The state of the Bulk Upload screen (BulkUploadPage.tsx): the files, the one message line
 * (a refused selection, nothing to upload) and the upload run.
 */
export function useBulkUpload() {
  const [items, update] = useReducer(uploadItemsReducer, []);
  const [message, setMessage] = useState<string | null>(null);
  const { addFiles, attachToVideo } = useFileSelection(update, setMessage);
  const { isUploading, uploadAll } = useUploadAll(items, update, setMessage);
  return { items, update, message, setMessage, isUploading, addFiles, attachToVideo, uploadAll };
}

/** The videos chosen on Find Videos (sessionStorage `selectedVideos`) and whether each has an MP3. */
export function useSelectedVideos() {
  const [selectedVideos] = useState(() => parseSelectedVideos(readJson('session', HANDOFF_KEYS.selectedVideos)));
  const selectedIds = selectedVideos.map((video) => video.youtubeVideoId);
  const { data: selectedStatuses } = useGetMp3StatusForVideosQuery(selectedIds.length > 0 ? selectedIds : skipToken);
  return { selectedVideos, selectedStatuses };
}

/** Adds picked or dropped MP3s (at most MAX_FILES_PER_SELECTION at once), or one attached to a selected video. */
function useFileSelection(update: Dispatch<UploadAction>, setMessage: SetMessage) {
  const addFiles = useCallback(
    (list: FileList | File[] | null) => {
      const files = list ? Array.from(list) : [];
      if (files.length === 0) return;
      if (files.length > MAX_FILES_PER_SELECTION) {
        setMessage(MESSAGES.tooMany);
        return;
      }
      const mp3s = files.filter(isMp3);
      setMessage(mp3s.length < files.length ? MESSAGES.mp3Only : null);
      if (mp3s.length > 0) update({ type: 'added', items: mp3s.map((file) => newUploadItem(file)) });
    },
    [update, setMessage],
  );

  function attachToVideo(video: SelectedVideo, file: File | undefined) {
    if (!file) return;
    if (!isMp3(file)) {
      setMessage(MESSAGES.mp3Only);
      return;
    }
    setMessage(null);
    update({ type: 'added', items: [newUploadItem(file, video)] });
  }

  return { addFiles, attachToVideo };
}

/**
 * Upload All: the pending files, UPLOAD_BATCH_SIZE at a time, each row with its own progress and
 * outcome; then a toast for the whole run.
 */
function useUploadAll(items: UploadItem[], update: Dispatch<UploadAction>, setMessage: SetMessage) {
  const dispatch = useAppDispatch();
  const [isUploading, setIsUploading] = useState(false);

  async function uploadAll() {
    const pending = items.filter((item) => item.status === 'pending');
    if (pending.length === 0) {
      setMessage(MESSAGES.nothingToUpload);
      return;
    }
    setMessage(null);
    setIsUploading(true);
    let failed = 0;
    try {
      for (const batch of inBatches(pending, UPLOAD_BATCH_SIZE)) {
        await Promise.all(
          batch.map(async (item) => {
            update({ type: 'started', id: item.id });
            const outcome = await uploadMp3({
              file: item.file,
              title: item.title,
              video: item.video,
              dispatch,
              onProgress: (progress) => update({ type: 'progressed', id: item.id, progress }),
            });
            if (outcome.ok) update({ type: 'succeeded', id: item.id, mp3Path: outcome.data.mp3Path });
            else {
              failed += 1;
              update({ type: 'failed', id: item.id, message: outcome.message });
            }
          }),
        );
      }
      const uploaded = pending.length - failed;
      // The MP3 status of the videos (Find Videos) and the manual uploads (Create Transcripts) changed.
      if (uploaded > 0) dispatch(baseApi.util.invalidateTags(['Mp3Status', 'ManualUploads']));
      dispatch(uploadRunToast(pending.length, failed));
    } catch {
      dispatch(errorToast(MESSAGES.overallFailed));
    } finally {
      setIsUploading(false);
    }
  }

  return { isUploading, uploadAll };
}

/** The toast at the end of an Upload All: all uploaded, or how many of the run failed. */
function uploadRunToast(total: number, failed: number) {
  const uploaded = total - failed;
  return failed === 0
    ? showToast({
        title: 'Upload complete',
        description: `${uploaded} file${uploaded === 1 ? '' : 's'} uploaded.`,
        variant: 'success',
      })
    : showToast({
        title: MESSAGES.overallFailed,
        description: `${failed} of ${total} file${total === 1 ? '' : 's'} could not be uploaded.`,
        variant: 'destructive',
      });
}

/** Create Transcripts from MP3s: hands the uploaded files to /transcripts (sessionStorage `mp3Files`) and opens it. */
export function useCreateTranscriptsHandoff(items: UploadItem[]) {
  const navigate = useNavigate();
  return function createTranscripts() {
    const uploaded = items.filter((item) => item.status === 'completed' && item.mp3Path);
    writeJson(
      'session',
      HANDOFF_KEYS.mp3Files,
      uploaded.map((item) => ({
        id: item.id,
        title: item.title,
        mp3Path: item.mp3Path,
        size: item.size,
        youtubeVideoId: item.video?.youtubeVideoId ?? null,
      })),
    );
    void navigate(paths.transcripts);
  };
}
