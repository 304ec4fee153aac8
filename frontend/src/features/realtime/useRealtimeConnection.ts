import { useEffect } from 'react';
import { getAccessToken } from '@/api/accessToken';
import { baseApi } from '@/api/baseApi';
import {
  connectionChanged,
  downloadProgressReceived,
  transcriptionCompleteReceived,
  transcriptionErrorReceived,
  transcriptionProgressReceived,
  type DownloadProgressEvent,
  type TranscriptionCompleteEvent,
  type TranscriptionErrorEvent,
  type TranscriptionProgressEvent,
} from '@/api/realtimeSlice';
import { closeSocket, openSocket, type RealtimeSocket } from '@/api/socket';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import type { AppDispatch } from '@/app/store';
import { showToast, type ToastVariant } from '@/lib/toast';

interface SourceUpdateEvent {
  type?: string;
  source?: { title?: string };
}
interface LibraryUpdateEvent {
  type?: string;
  transcript?: { title?: string };
}
interface NotificationEvent {
  title?: string;
  message?: string;
  type?: string;
}
interface SystemMessageEvent {
  title?: string;
  content?: string;
  level?: string;
}

const variantFor = (kind: string | undefined): ToastVariant => (kind === 'error' ? 'destructive' : 'default');

/** Wires the socket's events to toasts, the cache and the store (spec §7, §8). */
export function attachRealtimeHandlers(socket: RealtimeSocket, dispatch: AppDispatch): void {
  let reconnecting = false;
  let errorShown = false;

  socket.on('connect', () => {
    dispatch(connectionChanged(true));
    errorShown = false;
    if (reconnecting) {
      reconnecting = false;
      return;
    }
    dispatch(showToast({ title: 'Connected', description: 'Real-time updates are now active.', variant: 'success' }));
  });
  socket.on('disconnect', (reason: string) => {
    dispatch(connectionChanged(false));
    // The server closed the connection on purpose; socket.io does not come back by itself then.
    if (reason === 'io server disconnect') socket.connect();
  });
  socket.on('connect_error', () => {
    dispatch(connectionChanged(false));
    if (errorShown) return;
    errorShown = true;
    dispatch(
      showToast({ title: 'Connection Error', description: 'Failed to connect to real-time updates.', variant: 'destructive' }),
    );
  });
  socket.io.on('reconnect', () => {
    reconnecting = true;
    dispatch(showToast({ title: 'Reconnected', description: 'Real-time updates are restored.', variant: 'success' }));
  });

  socket.on('sourceUpdate', (event: SourceUpdateEvent) => {
    dispatch(baseApi.util.invalidateTags(['Source']));
    const title = event?.source?.title ?? '';
    if (event?.type === 'created') dispatch(showToast({ title: 'Source Added', description: title }));
    else if (event?.type === 'deleted') dispatch(showToast({ title: 'Source Removed', description: title }));
  });
  socket.on('libraryUpdate', (event: LibraryUpdateEvent) => {
    dispatch(baseApi.util.invalidateTags(['Transcript', 'LibraryStats']));
    if (event?.type === 'created') {
      const title = event.transcript?.title ?? 'A transcript';
      dispatch(
        showToast({
          title: 'New Transcript',
          description: `${title} has been processed and added to your library`,
          variant: 'success',
        }),
      );
    }
  });
  socket.on('notification', (event: NotificationEvent) => {
    dispatch(showToast({ title: event?.title ?? 'Notification', description: event?.message, variant: variantFor(event?.type) }));
  });
  socket.on('systemMessage', (event: SystemMessageEvent) => {
    dispatch(showToast({ title: event?.title ?? 'System message', description: event?.content, variant: variantFor(event?.level) }));
  });
  socket.on('statsUpdate', () => {
    dispatch(baseApi.util.invalidateTags(['LibraryStats']));
  });
  socket.on('testMessage', (event: { message?: string }) => {
    console.info('socket test message', event?.message);
  });
  socket.on('downloadProgress', (event: DownloadProgressEvent) => {
    dispatch(downloadProgressReceived(event));
  });
  socket.on('transcriptionProgress', (event: TranscriptionProgressEvent) => {
    dispatch(transcriptionProgressReceived(event));
  });
  socket.on('transcriptionComplete', (event: TranscriptionCompleteEvent) => {
    dispatch(transcriptionCompleteReceived(event));
  });
  socket.on('transcriptionError', (event: TranscriptionErrorEvent) => {
    dispatch(transcriptionErrorReceived(event));
  });
}

/**
 * One socket per signed-in session: opened once the user is loaded, authenticated with
 * `{userId, token}`, closed on sign-out.
 */
export function useRealtimeConnection(): void {
  const dispatch = useAppDispatch();
  const userId = useAppSelector((state) => (state.auth.status === 'authenticated' ? (state.auth.user?.id ?? null) : null));

  useEffect(() => {
    if (!userId) return undefined;
    let cancelled = false;
    void getAccessToken().then((token) => {
      if (cancelled) return;
      const socket = openSocket({ userId, token });
      attachRealtimeHandlers(socket, dispatch);
    });
    return () => {
      cancelled = true;
      closeSocket();
      dispatch(connectionChanged(false));
    };
  }, [userId, dispatch]);
}
