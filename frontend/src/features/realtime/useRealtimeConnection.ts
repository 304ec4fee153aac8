import { useEffect } from 'react';
import { getAccessToken } from '@/api/accessToken';
import {
  connectionChanged,
  realtimeEventReceived,
  realtimeEventTypes,
  socketConnected,
  socketConnectFailed,
  socketDisconnected,
  socketOpened,
  socketReconnected,
} from '@/api/realtimeSlice';
import { closeSocket, openSocket, type RealtimeSocket } from '@/api/socket';
import type { RealtimeEvent } from '@/api/types';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import type { AppDispatch } from '@/app/store';

/**
 * Turns the socket into actions of `api/realtimeSlice.ts` and nothing more: what an event means
 * (toasts, cache invalidation, state) belongs to the listeners and reducers of each feature
 * (docs/product-spec.md §7, §8).
 */
export function attachRealtimeHandlers(socket: RealtimeSocket, dispatch: AppDispatch): void {
  dispatch(socketOpened());
  socket.on('connect', () => dispatch(socketConnected()));
  socket.on('disconnect', (reason: string) => {
    dispatch(socketDisconnected(reason));
    // The server closed the connection on purpose; socket.io does not come back by itself then.
    if (reason === 'io server disconnect') socket.connect();
  });
  socket.on('connect_error', () => dispatch(socketConnectFailed()));
  socket.io.on('reconnect', () => dispatch(socketReconnected()));
  for (const type of realtimeEventTypes) {
    // The payload is the contract's for this event type (the socket does not check it).
    socket.on(type, (data: unknown) => dispatch(realtimeEventReceived({ type, data } as RealtimeEvent)));
  }
}

/**
 * One socket per signed-in session: opened once the user is loaded, authenticated with
 * `{userId, token}` (the token current at each connection attempt), closed on sign-out.
 */
export function useRealtimeConnection(): void {
  const dispatch = useAppDispatch();
  const userId = useAppSelector((state) => (state.auth.status === 'authenticated' ? (state.auth.user?.id ?? null) : null));

  useEffect(() => {
    if (!userId) return undefined;
    // Asked on every connection attempt: a reconnect after the token was renewed sends the new one.
    const socket = openSocket((callback) => {
      void getAccessToken().then((token) => callback({ userId, token }));
    });
    attachRealtimeHandlers(socket, dispatch);
    return () => {
      closeSocket();
      dispatch(connectionChanged(false));
    };
  }, [userId, dispatch]);
}
