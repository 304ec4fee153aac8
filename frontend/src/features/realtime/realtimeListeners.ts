import {
  isRealtimeEvent,
  socketConnected,
  socketConnectFailed,
  socketOpened,
  socketReconnected,
} from '@/api/realtimeSlice';
import { selectUserSettings } from '@/api/userSettingsApi';
import type { AppStartListening } from '@/app/store';
import { showToast, type ToastVariant } from '@/lib/toast';

const variantFor = (kind: string | undefined): ToastVariant => (kind === 'error' ? 'destructive' : 'default');

/**
 * The realtime feature's reactions: connection toasts (docs/product-spec.md §8, "Socket toasts") and the
 * server's notifications and system messages, which belong to no other feature.
 */
export function registerRealtimeListeners(startListening: AppStartListening): void {
  // Per socket: a reconnection is announced once (not again as "Connected"), and a connect
  // error once per outage.
  let reconnecting = false;
  let errorShown = false;

  startListening({
    actionCreator: socketOpened,
    effect: () => {
      reconnecting = false;
      errorShown = false;
    },
  });
  startListening({
    actionCreator: socketConnected,
    effect: (_action, api) => {
      errorShown = false;
      if (reconnecting) {
        reconnecting = false;
        return;
      }
      api.dispatch(showToast({ title: 'Connected', description: 'Real-time updates are now active.', variant: 'success' }));
    },
  });
  startListening({
    actionCreator: socketConnectFailed,
    effect: (_action, api) => {
      if (errorShown) return;
      errorShown = true;
      api.dispatch(
        showToast({ title: 'Connection Error', description: 'Failed to connect to real-time updates.', variant: 'destructive' }),
      );
    },
  });
  startListening({
    actionCreator: socketReconnected,
    effect: (_action, api) => {
      reconnecting = true;
      api.dispatch(showToast({ title: 'Reconnected', description: 'Real-time updates are restored.', variant: 'success' }));
    },
  });

  startListening({
    predicate: isRealtimeEvent.notification,
    effect: ({ payload: { data: event } }, api) => {
      // The gateway already drops switched-off kinds; an error notification that slips through
      // (sent before the setting changed, or by an older gateway) is not shown either.
      if (event?.type === 'error' && !selectUserSettings(api.getState()).notifications.errors) return;
      api.dispatch(showToast({ title: event?.title ?? 'Notification', description: event?.message, variant: variantFor(event?.type) }));
    },
  });
  startListening({
    predicate: isRealtimeEvent.systemMessage,
    effect: ({ payload: { data: event } }, api) => {
      api.dispatch(
        showToast({ title: event?.title ?? 'System message', description: event?.content, variant: variantFor(event?.level) }),
      );
    },
  });
}
