import { describe, expect, it, vi } from 'vitest';
import {
  realtimeEventReceived,
  socketConnected,
  socketConnectFailed,
  socketDisconnected,
  socketOpened,
  socketReconnected,
} from '@/api/realtimeSlice';
import { DEFAULT_USER_SETTINGS, userSettingsApi } from '@/api/userSettingsApi';
import { setupStore } from '@/app/store';

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

  it('notification and systemMessage become toasts, destructive for errors', () => {
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ name: 'notification', data: { title: 'Heads up', message: 'Ready', type: 'info' } }));
    store.dispatch(realtimeEventReceived({ name: 'systemMessage', data: { title: 'Maintenance', content: 'Down', level: 'error' } }));
    store.dispatch(realtimeEventReceived({ name: 'notification', data: null }));
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
    store.dispatch(realtimeEventReceived({ name: 'notification', data: { title: 'Download failed', message: 'x', type: 'error' } }));
    store.dispatch(realtimeEventReceived({ name: 'notification', data: { title: 'Download complete', message: 'y', type: 'success' } }));
    expect(toasts(store)).toEqual([{ title: 'Download complete', description: 'y', variant: 'default' }]);
  });

  it('testMessage is logged, not toasted', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ name: 'testMessage', data: { message: 'ping' } }));
    expect(info).toHaveBeenCalledWith('socket test message', 'ping');
    expect(toasts(store)).toEqual([]);
  });
});
