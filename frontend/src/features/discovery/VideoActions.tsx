import { Download, FileDown, FileText, Headphones, LoaderCircle, Wand2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { MAX_VIDEOS_PER_JOB } from '@/api/downloadJobs';
import { useCreateDownloadJobMutation } from '@/api/downloadsApi';
import { errorMessage } from '@/api/errors';
import { useCreateSourceMutation } from '@/api/sourcesApi';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { saveTextFile } from '@/lib/download';
import { HANDOFF_KEYS, writeJson } from '@/lib/storage';
import { errorToast, showToast } from '@/lib/toast';
import { useExportVideosMutation, type DiscoveryVideo, type ExportType } from './discoveryApi';
import { selectDiscovery } from './discoverySlice';
import { DISCOVERY_MESSAGES } from './discoveryThunks';
import { DOWNLOAD_AUDIO_MESSAGES, downloadJobCreatedToast } from './downloadAudio';
import { sourceChangeErrorMessage } from './sourceErrors';

const notice = (message: string) => showToast({ title: message, variant: 'warning' });

interface VideoActionsProps {
  videos: DiscoveryVideo[];
  selected: ReadonlySet<string>;
  /** The video's MP3 path, '' when it has one at an unknown path, null when it has none. */
  mp3PathOf: (video: DiscoveryVideo) => string | null;
  /** The MP3 status is still being asked: which videos have one is not known yet. */
  statusLoading: boolean;
}

/**
 * What Find Videos does with the listed videos: hand the selection to /download-mp3 or to
 * /transcripts (those with an MP3; all of them when none is selected), make a download job, or
 * export the URLs or all the data (the selection, or every video when none is selected).
 */
export function VideoActions({ videos, selected, mp3PathOf, statusLoading }: VideoActionsProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const downloadAudio = useDownloadAudio();
  const { exportAs, exporting } = useVideoExport();
  const videoIds = videos.map((video) => video.youtubeVideoId);
  const chosenIds = () => videoIds.filter((id) => selected.has(id));
  const hasMp3 = (video: DiscoveryVideo) => mp3PathOf(video) !== null;

  function downloadAsMp3() {
    const chosen = videos.filter((video) => selected.has(video.youtubeVideoId));
    if (chosen.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.selectToDownload));
      return;
    }
    writeJson('session', HANDOFF_KEYS.selectedVideos, chosen);
    void navigate(paths.uploads);
  }

  function createTranscripts() {
    const withMp3 = videos.filter(hasMp3);
    if (withMp3.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.noneHaveMp3));
      return;
    }
    const chosen = selected.size > 0 ? withMp3.filter((video) => selected.has(video.youtubeVideoId)) : withMp3;
    if (chosen.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.noneSelectedHaveMp3));
      return;
    }
    writeJson(
      'session',
      HANDOFF_KEYS.videosToTranscribe,
      chosen.map((video) => ({ ...video, mp3FilePath: mp3PathOf(video) || null })),
    );
    void navigate(paths.transcripts);
  }

  const exportIds = () => (selected.size > 0 ? chosenIds() : videoIds);
  return (
    <div className="results-actions button-row wrap" role="group" aria-label="Actions">
      <button type="button" className="btn btn-primary" onClick={downloadAsMp3}>
        <Download size={16} aria-hidden="true" /> Download Videos as MP3
      </button>
      <button type="button" className="btn btn-outline" disabled={downloadAudio.starting} onClick={() => void downloadAudio.start(chosenIds())}>
        {downloadAudio.starting ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Headphones size={16} aria-hidden="true" />}
        Download audio
      </button>
      <button type="button" className="btn btn-outline" disabled={statusLoading} onClick={createTranscripts}>
        <Wand2 size={16} aria-hidden="true" /> Create Transcripts
      </button>
      <button type="button" className="btn btn-outline" disabled={exporting} onClick={() => void exportAs(exportIds(), 'urls')}>
        <FileDown size={16} aria-hidden="true" /> Download URLs Only
      </button>
      <button type="button" className="btn btn-outline" disabled={exporting} onClick={() => void exportAs(exportIds(), 'all')}>
        {exporting ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <FileText size={16} aria-hidden="true" />}
        Download All Data
      </button>
    </div>
  );
}

/**
 * 'Download audio': the channel becomes a source (or the existing one is reused, and its new
 * videos synced), then a download job takes the selected videos; /downloads shows it.
 */
function useDownloadAudio() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { channel, search } = useAppSelector(selectDiscovery);
  const [createSource, { isLoading: addingSource }] = useCreateSourceMutation();
  const [createDownloadJob, { isLoading: creatingJob }] = useCreateDownloadJobMutation();
  const starting = addingSource || creatingJob;

  async function start(chosen: string[]) {
    if (starting) return;
    if (chosen.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.selectToDownload));
      return;
    }
    if (chosen.length > MAX_VIDEOS_PER_JOB) {
      dispatch(notice(DOWNLOAD_AUDIO_MESSAGES.tooMany(chosen.length)));
      return;
    }
    const url = channel?.id ? `https://www.youtube.com/channel/${channel.id}` : search?.channelUrl;
    if (!url) return;
    let sourceId: string;
    let sourceTitle: string;
    try {
      const source = await createSource({ url, reuseExisting: true }).unwrap();
      sourceId = source.id;
      sourceTitle = source.title || channel?.title || '';
    } catch (error) {
      dispatch(errorToast(sourceChangeErrorMessage(error, 'Failed to create source')));
      return;
    }
    try {
      const job = await createDownloadJob({ sourceId, videoIds: chosen }).unwrap();
      dispatch(downloadJobCreatedToast(job, sourceTitle, chosen.length));
      void navigate(paths.downloads);
    } catch (error) {
      dispatch(errorToast(errorMessage(error, DOWNLOAD_AUDIO_MESSAGES.createFailed)));
    }
  }

  return { start, starting };
}

/** Exports the given videos as a CSV of URLs or of all their data, saved as the server names it. */
function useVideoExport() {
  const dispatch = useAppDispatch();
  const [exportVideos, { isLoading: exporting }] = useExportVideosMutation();

  async function exportAs(ids: string[], exportType: ExportType) {
    if (ids.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.nothingToExport));
      return;
    }
    try {
      const file = await exportVideos({ videoIds: ids, exportType }).unwrap();
      saveTextFile(file.filename, file.csv);
      dispatch(
        showToast({
          title: 'Export ready',
          description: `${file.filename} (${ids.length} video${ids.length === 1 ? '' : 's'})`,
          variant: 'success',
        }),
      );
    } catch (error) {
      dispatch(errorToast(errorMessage(error, DISCOVERY_MESSAGES.exportFailed)));
    }
  }

  return { exportAs, exporting };
}
