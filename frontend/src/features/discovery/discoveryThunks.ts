import { nanoid } from '@reduxjs/toolkit';
import { baseApi } from '@/api/baseApi';
import { errorMessage } from '@/api/errors';
import { uploadMp3 } from '@/api/mp3Upload';
import type { AppThunk } from '@/app/store';
import { errorToast, showToast } from '@/lib/toast';
import { discoveryApi, type DiscoveryVideo, type VideoCount } from './discoveryApi';
import {
  rowUploadFailed,
  rowUploadProgressed,
  rowUploadStarted,
  rowUploadSucceeded,
  searchFailed,
  searchRecorded,
  searchStarted,
  searchSucceeded,
} from './discoverySlice';

export const DISCOVERY_MESSAGES = {
  enterChannelUrl: 'Please enter a YouTube channel URL',
  noVideosFound: 'No videos found for this channel',
  fetchFailed: 'Failed to fetch videos',
  dropMp3: 'Please drop an MP3 file',
  allHaveMp3: 'All videos already have MP3s uploaded',
  selectToDownload: 'Please select videos to download',
  noneHaveMp3: 'No videos have MP3 files uploaded. Please upload MP3 files first.',
  noneSelectedHaveMp3: 'None of the selected videos have MP3 files uploaded',
  nothingToExport: 'No videos to export',
  copyFailed: 'Failed to copy URL',
  exportFailed: 'Failed to export videos',
  uploadFailed: 'Failed to upload MP3',
} as const;

/**
 * Fetches a channel's videos. A new search replaces the results and is recorded in the search
 * history; a refresh (`refresh=true`) keeps them until the answer comes and says how many videos
 * are new. A failure shows the server's message, else 'Failed to fetch videos', in the error card
 * and a toast.
 */
export function searchChannel({
  channelUrl,
  limit,
  refresh,
}: {
  channelUrl: string;
  limit: VideoCount;
  refresh: boolean;
}): AppThunk<Promise<void>> {
  return async (dispatch, getState) => {
    const requestId = nanoid();
    dispatch(searchStarted({ requestId, channelUrl, limit, refresh }));
    try {
      const result = await dispatch(
        discoveryApi.endpoints.searchChannelVideos.initiate({ channelUrl, limit, refresh }, { track: false }),
      ).unwrap();
      if (getState().discovery.requestId !== requestId) return;
      dispatch(searchSucceeded({ requestId, result }));
      if (!refresh && result.channel) {
        dispatch(
          searchRecorded({
            channelUrl,
            channelTitle: result.channel.title ?? '',
            channelThumbnail: result.channel.thumbnails?.high?.url ?? null,
          }),
        );
      }
      if (refresh) {
        const count = result.newCount;
        dispatch(
          showToast({
            title: 'Videos refreshed',
            description: count > 0 ? `${count} new video${count === 1 ? '' : 's'} found` : 'No new videos found',
            variant: count > 0 ? 'success' : 'default',
          }),
        );
      }
    } catch (error) {
      if (getState().discovery.requestId !== requestId) return;
      const message = errorMessage(error, DISCOVERY_MESSAGES.fetchFailed);
      dispatch(searchFailed({ requestId, message }));
      dispatch(errorToast(message));
    }
  };
}

/**
 * Uploads `file` as the MP3 of `video` (`POST /api/video-mp3/upload/{videoId}`), with the row's
 * progress; afterwards every MP3 status is asked again.
 */
export function attachMp3ToVideo(video: DiscoveryVideo, file: File): AppThunk<Promise<boolean>> {
  return async (dispatch) => {
    const videoId = video.youtubeVideoId;
    dispatch(rowUploadStarted(videoId));
    const outcome = await uploadMp3({
      file,
      title: video.title,
      video,
      dispatch,
      onProgress: (progress) => dispatch(rowUploadProgressed({ videoId, progress })),
      fallbackMessage: DISCOVERY_MESSAGES.uploadFailed,
    });
    if (!outcome.ok) {
      dispatch(rowUploadFailed({ videoId, message: outcome.message }));
      dispatch(errorToast(outcome.message));
      return false;
    }
    dispatch(rowUploadSucceeded({ videoId, mp3Path: outcome.data.mp3Path }));
    dispatch(baseApi.util.invalidateTags(['Mp3Status', 'ManualUploads']));
    dispatch(showToast({ title: 'MP3 uploaded', description: video.title, variant: 'success' }));
    return true;
  };
}
