import type { UnknownAction } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import {
  realtimeEventReceived,
  realtimeEventTypes,
  socketConnected,
  socketConnectFailed,
  socketDisconnected,
  socketOpened,
  socketReconnected,
} from '@/api/realtimeSlice';
import { DEFAULT_USER_SETTINGS, userSettingsApi } from '@/api/userSettingsApi';
import { SOCKET_OPTIONS } from '@/api/socket';
import { setupStore } from '@/app/store';
import { FakeSocket } from '@/testing/fakeSocket';
import { attachRealtimeHandlers } from './useRealtimeConnection';

const toasts = (store: ReturnType<typeof setupStore>) =>
  store.getState().toast.items.map(({ title, description, variant }) => ({ title, description, variant }));

const CONNECTED = { title: 'Connected', description: 'Real-time updates are now active.', variant: 'success' };
const CONNECTION_ERROR = { title: 'Connection Error', description: 'Failed to connect to real-time updates.', variant: 'destructive' };
const RECONNECTED = { title: 'Reconnected', description: 'Real-time updates are restored.', variant: 'success' };

describe('realtime listeners', () => {
  it('connection actions set the connected flag and toast Connected', () => {
    const store = setupStore();
    store.dispatch(socketOpened());
    store.dispatch(socketConnected());
    expect(store.getState().realtime.connected).toBe(true);
    expect(toasts(store)).toEqual([CONNECTED]);
    store.dispatch(socketDisconnected('transport close'));
    expect(store.getState().realtime.connected).toBe(false);
    expect(toasts(store)).toEqual([CONNECTED]);
  });

  it('toasts a connect error once per outage, then Reconnected instead of Connected', () => {
    const store = setupStore();
    store.dispatch(socketOpened());
    store.dispatch(socketConnectFailed());
    store.dispatch(socketConnectFailed());
    expect(store.getState().realtime.connected).toBe(false);
    expect(toasts(store)).toEqual([CONNECTION_ERROR]);
    store.dispatch(socketReconnected());
    store.dispatch(socketConnected());
    expect(toasts(store)).toEqual([CONNECTION_ERROR, RECONNECTED]);
    // A later outage is announced again.
    store.dispatch(socketConnectFailed());
    expect(toasts(store)).toEqual([CONNECTION_ERROR, RECONNECTED, CONNECTION_ERROR]);
  });

  it('a new socket starts with fresh connection toasts', () => {
    const store = setupStore();
    store.dispatch(socketOpened());
    store.dispatch(socketConnectFailed());
    store.dispatch(socketReconnected());
    store.dispatch(socketOpened());
    store.dispatch(socketConnected());
    expect(toasts(store).at(-1)).toEqual(CONNECTED);
  });
});

describe("realtime listeners: notifications and the contract's events", () => {
  it('notification and systemMessage become toasts, destructive for errors', () => {
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'notification', data: { title: 'Heads up', message: 'Ready', type: 'info' } }));
    store.dispatch(realtimeEventReceived({ type: 'systemMessage', data: { title: 'Maintenance', content: 'Down', level: 'error' } }));
    store.dispatch(realtimeEventReceived({ type: 'notification', data: null as never }));
    expect(toasts(store)).toEqual([
      { title: 'Heads up', description: 'Ready', variant: 'default' },
      { title: 'Maintenance', description: 'Down', variant: 'destructive' },
      { title: 'Notification', description: undefined, variant: 'default' },
    ]);
  });

  it("drops an error notification while the user's errors notifications are off", async () => {
    const store = setupStore();
    await store.dispatch(
      userSettingsApi.util.upsertQueryData('getUserSettings', undefined, {
        ...DEFAULT_USER_SETTINGS,
        notifications: { ...DEFAULT_USER_SETTINGS.notifications, errors: false },
      }),
    );
    store.dispatch(realtimeEventReceived({ type: 'notification', data: { title: 'Download failed', message: 'x', type: 'error' } }));
    store.dispatch(realtimeEventReceived({ type: 'notification', data: { title: 'Download complete', message: 'y', type: 'success' } }));
    expect(toasts(store)).toEqual([{ title: 'Download complete', description: 'y', variant: 'default' }]);
  });

  it("the socket dispatches every event of the contract's RealtimeEvent, and nothing else (testMessage is only an echo)", () => {
    const socket = new FakeSocket('http://localhost', { ...SOCKET_OPTIONS, auth: () => {} });
    const dispatched: UnknownAction[] = [];
    attachRealtimeHandlers(socket, ((action: UnknownAction) => dispatched.push(action)) as never);
    expect([...realtimeEventTypes].sort()).toEqual(
      [
        'downloadProgress',
        'libraryUpdate',
        'notification',
        'queueUpdate',
        'sourceUpdate',
        'statsUpdate',
        'systemMessage',
        'transcriptionComplete',
        'transcriptionError',
        'transcriptionProgress',
      ],
    );
    socket.serverEmit('testMessage', { message: 'ping' });
    socket.serverEmit('notification', { title: 'Heads up', message: 'Ready', type: 'info' });
    expect(dispatched.filter((action) => realtimeEventReceived.match(action)).map((action) => action.payload)).toEqual([
      { type: 'notification', data: { title: 'Heads up', message: 'Ready', type: 'info' } },
    ]);
  });
});
