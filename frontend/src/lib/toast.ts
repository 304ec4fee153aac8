import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { errorMessage } from '@/api/errors';

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

/** The toast of a failure (docs/product-spec.md §8): destructive, titled Error, saying what went wrong. */
export const errorToast = (description: string) => showToast({ title: 'Error', description, variant: 'destructive' });

/**
 * Toasts a failure from a component: `showError(failure, fallback)` says the server's message
 * when the answer has one, else `fallback` (pass `null` as the failure when there is no answer,
 * e.g. a refused copy). Stable across renders. Shared code cannot reach app/hooks, and a plain
 * action needs no typed dispatch, hence react-redux's own hook here.
 */
export function useErrorToast(): (failure: unknown, fallback: string) => void {
  const dispatch = useDispatch();
  return useCallback((failure: unknown, fallback: string) => {
    dispatch(errorToast(errorMessage(failure, fallback)));
  }, [dispatch]);
}
