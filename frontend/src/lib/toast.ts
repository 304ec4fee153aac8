import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

export type ToastVariant = 'default' | 'success' | 'destructive' | 'warning';

export interface Toast {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  /** An in-app link shown in the toast (e.g. 'Open the Vault' after a save). */
  link?: ToastLink;
}

export interface ToastLink {
  label: string;
  /** A route of the app, e.g. '/vault'. */
  to: string;
}

export interface ToastState {
  items: Toast[];
}

/** At most this many toasts are kept on screen; older ones give way. */
export const MAX_TOASTS = 3;
/** Toasts close by themselves after this many milliseconds. */
export const TOAST_DURATION_MS = 5000;

const initialState: ToastState = { items: [] };

const toastSlice = createSlice({
  name: 'toast',
  initialState,
  reducers: {
    showToast: {
      reducer(state, action: PayloadAction<Toast>) {
        state.items.push(action.payload);
        if (state.items.length > MAX_TOASTS) state.items.splice(0, state.items.length - MAX_TOASTS);
      },
      prepare(toast: { title: string; description?: string; variant?: ToastVariant; link?: ToastLink }) {
        const payload: Toast = { id: nanoid(), variant: 'default', ...toast };
        return { payload };
      },
    },
    dismissToast(state, action: PayloadAction<string>) {
      state.items = state.items.filter((toast) => toast.id !== action.payload);
    },
  },
});

export const { showToast, dismissToast } = toastSlice.actions;
export const toastReducer = toastSlice.reducer;
