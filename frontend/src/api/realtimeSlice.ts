import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RealtimeEvent, RealtimeEventName } from './types';

/**
 * The realtime socket as actions. The socket knows nothing about what its events mean: it
 * dispatches the connection actions below and one `realtimeEventReceived({ type, data })` per
 * server event (the contract's RealtimeEvent). Each feature reacts in its own reducers or
 * listeners (toasts, cache invalidation), so no feature has to import another.
 */
export interface RealtimeState {
  connected: boolean;
}

const initialState: RealtimeState = { connected: false };

/**
 * The events the socket listens to: every `type` of the contract's RealtimeEvent (generated from
 * docs/openapi.json). A Record, so an event added to or dropped from the contract fails tsc here
 * until it is handled.
 */
const LISTENED: Record<RealtimeEventName, true> = {
  transcriptionProgress: true,
  transcriptionComplete: true,
  transcriptionError: true,
  libraryUpdate: true,
  downloadProgress: true,
  sourceUpdate: true,
  notification: true,
  systemMessage: true,
  statsUpdate: true,
  queueUpdate: true,
};
export const realtimeEventTypes = Object.keys(LISTENED) as readonly RealtimeEventName[];

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
/** Any server event; `type` is the socket.io event name, `data` its payload. */
export const realtimeEventReceived = createAction<RealtimeEvent>('realtime/eventReceived');

/** `realtimeEventReceived` of one event type, its `data` typed by the contract. */
export type RealtimeEventAction<Name extends RealtimeEventName> = PayloadAction<Extract<RealtimeEvent, { type: Name }>>;

/**
 * One matcher per event type: `isRealtimeEvent.sourceUpdate` matches `realtimeEventReceived` of a
 * `sourceUpdate` and types its `data`. (An object rather than a generic function, so that
 * `startListening({ predicate: … })` narrows the action.)
 */
export const isRealtimeEvent = Object.fromEntries(
  realtimeEventTypes.map((type) => [type, (action: unknown) => realtimeEventReceived.match(action) && action.payload.type === type]),
) as { [Name in RealtimeEventName]: (action: unknown) => action is RealtimeEventAction<Name> };

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
