import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The realtime socket as actions. The socket knows nothing about what its events mean: it
 * dispatches the connection actions below and one `realtimeEventReceived({ name, data })` per
 * server event. Each feature reacts in its own reducers or listeners (toasts, cache invalidation),
 * so no feature has to import another.
 */
export interface RealtimeState {
  connected: boolean;
}

const initialState: RealtimeState = { connected: false };

/** The events the server sends (spec §7, "Real-time socket"). */
export const REALTIME_EVENT_NAMES = [
  'downloadProgress',
  'sourceUpdate',
  'libraryUpdate',
  'notification',
  'statsUpdate',
  'systemMessage',
  'testMessage',
  'transcriptionProgress',
  'transcriptionComplete',
  'transcriptionError',
] as const;

export type RealtimeEventName = (typeof REALTIME_EVENT_NAMES)[number];

export interface RealtimeEvent<T = unknown> {
  name: RealtimeEventName;
  /** The event's body as the server sent it; listeners must not trust its shape. */
  data: T;
}

/** A socket was opened for the session (one per sign-in). */
export const socketOpened = createAction('realtime/socketOpened');
/** socket.io's `connect`. */
export const socketConnected = createAction('realtime/connected');
/** socket.io's `disconnect`, with its reason. */
export const socketDisconnected = createAction<string>('realtime/disconnected');
/** socket.io's `connect_error`. */
export const socketConnectFailed = createAction('realtime/connectFailed');
/** The manager's `reconnect`: the connection came back after an outage. */
export const socketReconnected = createAction('realtime/reconnected');
/** Any server event; `name` is the socket.io event name. */
export const realtimeEventReceived = createAction<RealtimeEvent>('realtime/eventReceived');

/**
 * Matches `realtimeEventReceived` for one event name, typing `data` as the caller says (or
 * missing: the server is not type-checked).
 */
export function isRealtimeEvent<T>(name: RealtimeEventName) {
  return (action: unknown): action is PayloadAction<RealtimeEvent<T | null | undefined>> =>
    realtimeEventReceived.match(action) && action.payload.name === name;
}

const realtimeSlice = createSlice({
  name: 'realtime',
  initialState,
  reducers: {
    connectionChanged(state, action: PayloadAction<boolean>) {
      state.connected = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(socketConnected, (state) => {
        state.connected = true;
      })
      .addCase(socketDisconnected, (state) => {
        state.connected = false;
      })
      .addCase(socketConnectFailed, (state) => {
        state.connected = false;
      });
  },
});

export const { connectionChanged } = realtimeSlice.actions;
export const realtimeReducer = realtimeSlice.reducer;
