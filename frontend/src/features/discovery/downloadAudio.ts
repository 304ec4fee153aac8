import { DOWNLOAD_ERRORS, MAX_VIDEOS_PER_JOB, type DownloadJob } from '@/api/downloadJobs';
import type { CreateDownloadJobRequest } from '@/api/downloadsApi';
import { showToast } from '@/lib/toast';

/** Texts of the 'Download audio' actions of /sources and Find Videos. */
export const DOWNLOAD_AUDIO_MESSAGES = {
  createFailed: DOWNLOAD_ERRORS.create,
  tooMany: (selected: number) =>
    `A download job takes at most ${MAX_VIDEOS_PER_JOB} videos; ${selected} are selected. Select fewer videos.`,
} as const;

/** "Transcribe after download": the spec's default model and output (§9). */
export function transcribeOptions(): Pick<CreateDownloadJobRequest, 'transcribe' | 'model' | 'outputFormat'> {
  return { transcribe: true, model: 'small', outputFormat: 'markdown' };
}

export function downloadJobCreatedToast(job: DownloadJob | null | undefined, sourceTitle: string, videoCount: number) {
  const count = job?.totalVideos || videoCount;
  return showToast({
    title: 'Download job created',
    description: `${count} ${count === 1 ? 'video' : 'videos'} from ${job?.sourceTitle || sourceTitle}`,
    variant: 'success',
  });
}
