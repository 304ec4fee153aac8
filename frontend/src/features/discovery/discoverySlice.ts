import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { readJson } from '@/lib/storage';
import type { ChannelVideosResult, DiscoveryChannel, DiscoveryVideo, VideoCount } from './discoveryApi';
import {
  parseSearchHistory,
  recordSearch,
  SEARCH_HISTORY_STORAGE_KEY,
  type SearchHistoryEntry,
} from './searchHistory';

/**
 * Client state of Find Videos: the last search and its videos, the selection, the per-row MP3
 * uploads and the search history. It lives in the store, not in the page, so the results and the
 * selection are still there when the user comes back from /download-mp3 or /transcripts.
 */
export type SearchStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface RowUpload {
  status: 'uploading' | 'failed' | 'done';
  /** 0-100. */
  progress: number;
  error: string | null;
  mp3Path: string | null;
}

export interface DiscoveryState {
  /** The last search asked for; Refresh repeats it. */
  search: { channelUrl: string; limit: VideoCount } | null;
  status: SearchStatus;
  /** A Refresh (refresh=true) of the current results is running. */
  refreshing: boolean;
  /** The search whose answer is awaited; answers to older ones are ignored. */
  requestId: string | null;
  error: string | null;
  videos: DiscoveryVideo[];
  channel: DiscoveryChannel | null;
  selectedIds: string[];
  uploads: Record<string, RowUpload>;
  history: SearchHistoryEntry[];
}

export function loadInitialDiscoveryState(): DiscoveryState {
  return {
    search: null,
    status: 'idle',
    refreshing: false,
    requestId: null,
    error: null,
    videos: [],
    channel: null,
    selectedIds: [],
    uploads: {},
    history: parseSearchHistory(readJson<unknown>('local', SEARCH_HISTORY_STORAGE_KEY)),
  };
}

const discoverySlice = createSlice({
  name: 'discovery',
  initialState: loadInitialDiscoveryState,
  reducers: {
    searchStarted(
      state,
      action: PayloadAction<{ requestId: string; channelUrl: string; limit: VideoCount; refresh: boolean }>,
    ) {
      const { requestId, channelUrl, limit, refresh } = action.payload;
      state.requestId = requestId;
      state.search = { channelUrl, limit };
      state.error = null;
      if (refresh) {
        state.refreshing = true;
        return;
      }
      state.status = 'loading';
      state.refreshing = false;
      state.videos = [];
      state.channel = null;
      state.selectedIds = [];
    },
    searchSucceeded(state, action: PayloadAction<{ requestId: string; result: ChannelVideosResult }>) {
      if (action.payload.requestId !== state.requestId) return;
      const { videos, channel } = action.payload.result;
      state.requestId = null;
      state.status = 'succeeded';
      state.refreshing = false;
      state.videos = videos;
      state.channel = channel;
      const listed = new Set(videos.map((video) => video.youtubeVideoId));
      state.selectedIds = state.selectedIds.filter((id) => listed.has(id));
    },
    searchFailed(state, action: PayloadAction<{ requestId: string; message: string }>) {
      if (action.payload.requestId !== state.requestId) return;
      state.requestId = null;
      state.error = action.payload.message;
      // A failed Refresh keeps the results it was refreshing.
      if (state.refreshing && state.channel) state.refreshing = false;
      else state.status = 'failed';
    },
    videoSelectionToggled(state, action: PayloadAction<string>) {
      const id = action.payload;
      state.selectedIds = state.selectedIds.includes(id)
        ? state.selectedIds.filter((selected) => selected !== id)
        : [...state.selectedIds, id];
    },
    allVideosSelected(state, action: PayloadAction<boolean>) {
      state.selectedIds = action.payload ? state.videos.map((video) => video.youtubeVideoId) : [];
    },
    searchRecorded: {
      reducer(
        state,
        action: PayloadAction<{
          channelUrl: string;
          channelTitle: string;
          channelThumbnail: string | null;
          searchedAt: string;
          id: string;
        }>,
      ) {
        const { id, searchedAt, ...search } = action.payload;
        state.history = recordSearch(state.history, search, new Date(searchedAt), () => id);
      },
      prepare(search: { channelUrl: string; channelTitle: string; channelThumbnail: string | null }) {
        return { payload: { ...search, searchedAt: new Date().toISOString(), id: nanoid() } };
      },
    },
    historyEntryRemoved(state, action: PayloadAction<string>) {
      state.history = state.history.filter((entry) => entry.id !== action.payload);
    },
    historyCleared(state) {
      state.history = [];
    },
    rowUploadStarted(state, action: PayloadAction<string>) {
      state.uploads[action.payload] = { status: 'uploading', progress: 0, error: null, mp3Path: null };
    },
    rowUploadProgressed(state, action: PayloadAction<{ videoId: string; progress: number }>) {
      const upload = state.uploads[action.payload.videoId];
      if (upload?.status === 'uploading') upload.progress = Math.max(0, Math.min(100, action.payload.progress));
    },
    rowUploadSucceeded(state, action: PayloadAction<{ videoId: string; mp3Path: string }>) {
      state.uploads[action.payload.videoId] = { status: 'done', progress: 100, error: null, mp3Path: action.payload.mp3Path };
    },
    rowUploadFailed(state, action: PayloadAction<{ videoId: string; message: string }>) {
      state.uploads[action.payload.videoId] = { status: 'failed', progress: 0, error: action.payload.message, mp3Path: null };
    },
  },
});

export const {
  searchStarted,
  searchSucceeded,
  searchFailed,
  videoSelectionToggled,
  allVideosSelected,
  searchRecorded,
  historyEntryRemoved,
  historyCleared,
  rowUploadStarted,
  rowUploadProgressed,
  rowUploadSucceeded,
  rowUploadFailed,
} = discoverySlice.actions;
export const discoveryReducer = discoverySlice.reducer;

interface WithDiscovery {
  discovery: DiscoveryState;
}
export const selectDiscovery = (state: WithDiscovery) => state.discovery;
export const selectSearchHistory = (state: WithDiscovery) => state.discovery.history;
