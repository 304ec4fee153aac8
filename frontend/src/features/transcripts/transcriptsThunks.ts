import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { errorMessage } from '@/api/errors';
import { mp3Api } from '@/api/mp3Api';
import type { AppThunk } from '@/app/store';
import { HANDOFF_KEYS, readJson, removeKey } from '@/lib/storage';
import { errorToast, showToast } from '@/lib/toast';
import { OVERNIGHT_WINDOW, transcriptsApi, type TranscriptionRequestFile } from './transcriptsApi';
import {
  allJobsCleared,
  fileCancelled,
  fileRetrying,
  filesAdded,
  filesReset,
  isFailed,
  isFinished,
  isStartable,
  jobScheduled,
  jobStarted,
  startFailed,
  startRequested,
  type NewTranscriptionFile,
  type TranscriptionFile,
} from './transcriptsSlice';

/** Stop All forgets every job after this grace period (docs/product-spec.md §9: 0.5 s). */
export const STOP_ALL_CLEAR_DELAY_MS = 500;
export const SOCKET_DOWN_WARNING = 'WebSocket not connected yet. Progress updates may be delayed.';

const toRequestFile = (file: TranscriptionFile): TranscriptionRequestFile => ({
  id: file.id,
  mp3Path: file.mp3Path,
  title: file.title,
});

/**
 * Starts (or, with Schedule Overnight on, schedules) the given files, or every pending file.
 * Resolves to true when the server accepted the job.
 */
export function startTranscription(
  fileIds?: string[],
  { failureMessage }: { failureMessage?: string } = {},
): AppThunk<Promise<boolean>> {
  return async (dispatch, getState) => {
    const state = getState();
    const { settings } = state.transcripts;
    const files = state.transcripts.files.filter(
      (file) => isStartable(file.status) && (!fileIds || fileIds.includes(file.id)),
    );
    if (files.length === 0) return false;
    const body = {
      files: files.map(toRequestFile),
      model: settings.whisperModel,
      outputFormat: settings.outputAsMarkdown ? ('markdown' as const) : ('txt' as const),
    };
    const ids = files.map((file) => file.id);

    if (settings.scheduleOvernight) {
      try {
        const { jobId } = await dispatch(
          transcriptsApi.endpoints.scheduleTranscription.initiate({ ...body, ...OVERNIGHT_WINDOW }),
        ).unwrap();
        dispatch(jobScheduled({ jobId, fileIds: ids }));
        dispatch(
          showToast({
            title: 'Transcription scheduled',
            description: `${files.length} file${files.length === 1 ? '' : 's'} will be transcribed between 1AM and 6AM.`,
            variant: 'success',
          }),
        );
        return true;
      } catch (error) {
        dispatch(errorToast(errorMessage(error, failureMessage ?? 'Failed to schedule transcription')));
        return false;
      }
    }

    if (!state.realtime.connected) {
      dispatch(showToast({ title: 'Warning', description: SOCKET_DOWN_WARNING, variant: 'warning' }));
    }
    dispatch(startRequested(ids));
    try {
      const { jobId } = await dispatch(transcriptsApi.endpoints.startTranscription.initiate(body)).unwrap();
      dispatch(jobStarted({ jobId, fileIds: ids }));
      return true;
    } catch (error) {
      dispatch(startFailed(ids));
      dispatch(errorToast(errorMessage(error, failureMessage ?? 'Failed to start transcription')));
      return false;
    }
  };
}

/**
 * Retries failed files: through a retry call on their existing job when there is one (the file
 * becomes retrying), otherwise, or if that call fails, through a fresh start.
 */
function retryFiles(files: TranscriptionFile[], failureMessage: string): AppThunk<Promise<void>> {
  return async (dispatch) => {
    const needFreshStart: string[] = [];
    await Promise.all(
      files.map(async (file) => {
        if (!file.jobId) {
          needFreshStart.push(file.id);
          return;
        }
        try {
          const server = await dispatch(
            transcriptsApi.endpoints.retryTranscription.initiate({ fileId: file.id, jobId: file.jobId }),
          ).unwrap();
          dispatch(fileRetrying({ fileId: file.id, file: server }));
        } catch {
          needFreshStart.push(file.id);
        }
      }),
    );
    if (needFreshStart.length === 0) return;
    dispatch(filesReset(needFreshStart));
    await dispatch(startTranscription(needFreshStart, { failureMessage }));
  };
}

export function retryFile(fileId: string): AppThunk<Promise<void>> {
  return async (dispatch, getState) => {
    const file = getState().transcripts.files.find((candidate) => candidate.id === fileId);
    if (!file) return;
    await dispatch(retryFiles([file], 'Failed to retry'));
  };
}

export function retryFailedFiles(): AppThunk<Promise<void>> {
  return async (dispatch, getState) => {
    const failed = getState().transcripts.files.filter((file) => isFailed(file.status));
    if (failed.length === 0) {
      dispatch(showToast({ title: 'Nothing to retry', description: 'No failed files to retry' }));
      return;
    }
    await dispatch(retryFiles(failed, 'Failed to retry files'));
  };
}

export function cancelFile(fileId: string): AppThunk<Promise<void>> {
  return async (dispatch, getState) => {
    const file = getState().transcripts.files.find((candidate) => candidate.id === fileId);
    if (!file) return;
    if (!file.jobId) {
      dispatch(errorToast('No active job for this file'));
      return;
    }
    try {
      const server = await dispatch(
        transcriptsApi.endpoints.cancelTranscription.initiate({ fileId, jobId: file.jobId }),
      ).unwrap();
      dispatch(fileCancelled({ fileId, file: server }));
    } catch (error) {
      const answered = typeof (error as FetchBaseQueryError | undefined)?.status === 'number';
      dispatch(
        errorToast(answered ? errorMessage(error, 'Failed to cancel transcription') : 'Error cancelling transcription'),
      );
    }
  };
}

/** Cancels every unfinished file of every active job; the jobs are cleared after 0.5 s. */
export function stopAll(): AppThunk<Promise<void>> {
  return async (dispatch, getState) => {
    const { activeJobIds, files } = getState().transcripts;
    if (activeJobIds.length === 0) {
      dispatch(allJobsCleared());
      dispatch(errorToast('No active transcription job'));
      return;
    }
    setTimeout(() => dispatch(allJobsCleared()), STOP_ALL_CLEAR_DELAY_MS);
    const targets = files.filter((file) => file.jobId && activeJobIds.includes(file.jobId) && !isFinished(file.status));
    const results = await Promise.allSettled(
      targets.map((file) =>
        dispatch(
          transcriptsApi.endpoints.cancelTranscription.initiate({ fileId: file.id, jobId: file.jobId as string }),
        ).unwrap(),
      ),
    );
    if (results.some((result) => result.status === 'rejected')) {
      dispatch(errorToast('Failed to stop all transcriptions'));
    } else {
      dispatch(showToast({ title: 'Stopped', description: 'All transcriptions were stopped.' }));
    }
  };
}

export function loadManualUploads(): AppThunk<Promise<void>> {
  return async (dispatch, getState) => {
    try {
      const videos = await dispatch(
        mp3Api.endpoints.getManualUploads.initiate(undefined, { forceRefetch: true, subscribe: false }),
      ).unwrap();
      if (videos.length === 0) {
        dispatch(showToast({ title: 'Manual uploads', description: 'No manual uploads found' }));
        return;
      }
      const before = getState().transcripts.files.length;
      dispatch(
        filesAdded(
          videos.map((video) => ({ title: video.title, mp3Path: video.mp3FilePath, youtubeVideoId: video.youtubeVideoId })),
        ),
      );
      const added = getState().transcripts.files.length - before;
      dispatch(
        showToast({
          title: 'Manual uploads loaded',
          description: `${added} file${added === 1 ? '' : 's'} added.`,
          variant: 'success',
        }),
      );
    } catch (error) {
      dispatch(errorToast(errorMessage(error, 'Failed to load manual uploads')));
    }
  };
}

interface HandedOverMp3 {
  id?: string;
  title?: string;
  mp3Path?: string;
  mp3FilePath?: string;
}

interface HandedOverVideo {
  youtubeVideoId?: string;
  title?: string;
  mp3FilePath?: string | null;
  mp3Path?: string | null;
}

/**
 * Takes the files other screens left in session storage: `mp3Files` from the bulk upload screen
 * and `videosToTranscribe` from video discovery (whose MP3 paths are looked up).
 */
export function importHandedOverFiles(): AppThunk<Promise<void>> {
  return async (dispatch) => {
    const mp3Files = readJson<HandedOverMp3[]>('session', HANDOFF_KEYS.mp3Files);
    removeKey('session', HANDOFF_KEYS.mp3Files);
    if (Array.isArray(mp3Files)) {
      const files: NewTranscriptionFile[] = mp3Files
        .map((item) => ({ title: item.title ?? '', mp3Path: item.mp3Path ?? item.mp3FilePath ?? '' }))
        .filter((item) => item.mp3Path)
        .map((item) => ({ ...item, title: item.title || item.mp3Path }));
      if (files.length > 0) dispatch(filesAdded(files));
    }

    const rawVideos = window.sessionStorage.getItem(HANDOFF_KEYS.videosToTranscribe);
    if (rawVideos === null) return;
    removeKey('session', HANDOFF_KEYS.videosToTranscribe);
    try {
      const videos = JSON.parse(rawVideos) as HandedOverVideo[];
      if (!Array.isArray(videos) || videos.length === 0) return;
      const missing = videos.filter((video) => video.youtubeVideoId && !(video.mp3FilePath ?? video.mp3Path));
      const statuses =
        missing.length > 0
          ? await dispatch(
              mp3Api.endpoints.getMp3StatusForVideos.initiate(
                missing.map((video) => video.youtubeVideoId as string),
                { subscribe: false, forceRefetch: true },
              ),
            ).unwrap()
          : {};
      const files: NewTranscriptionFile[] = [];
      for (const video of videos) {
        const mp3Path =
          video.mp3FilePath ?? video.mp3Path ?? (video.youtubeVideoId ? statuses[video.youtubeVideoId]?.mp3FilePath : null);
        if (!mp3Path) continue;
        files.push({ title: video.title ?? mp3Path, mp3Path, youtubeVideoId: video.youtubeVideoId ?? null });
      }
      if (files.length > 0) dispatch(filesAdded(files));
    } catch {
      dispatch(errorToast('Failed to load MP3 files from YouTube discovery'));
    }
  };
}
