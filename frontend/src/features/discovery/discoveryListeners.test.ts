import { describe, expect, it, vi } from 'vitest';
import { baseApi } from '@/api/baseApi';
import { realtimeEventReceived } from '@/api/realtimeSlice';
import { setupStore } from '@/app/store';

const toasts = (store: ReturnType<typeof setupStore>) =>
  store.getState().toast.items.map(({ title, description, variant }) => ({ title, description, variant }));

describe('discovery realtime listeners', () => {
  it('sourceUpdate created toasts Source Added with the title and invalidates sources', () => {
    const invalidate = vi.spyOn(baseApi.util, 'invalidateTags');
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'sourceUpdate', data: { type: 'created', source: { id: 's-1', title: 'Lex Fridman' } } }));
    expect(invalidate).toHaveBeenCalledExactlyOnceWith(['Source']);
    expect(toasts(store)).toEqual([{ title: 'Source Added', description: 'Lex Fridman', variant: 'default' }]);
  });

  it('sourceUpdate deleted toasts Source Removed', () => {
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'sourceUpdate', data: { type: 'deleted', source: { id: 's-2', title: 'Old Channel' } } }));
    expect(toasts(store)).toEqual([{ title: 'Source Removed', description: 'Old Channel', variant: 'default' }]);
  });

  it('sourceUpdate of another type (or with no body) only invalidates sources', () => {
    const invalidate = vi.spyOn(baseApi.util, 'invalidateTags');
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'sourceUpdate', data: { type: 'updated', source: { id: 's-3', title: 'x' } } }));
    store.dispatch(realtimeEventReceived({ type: 'sourceUpdate', data: undefined as never }));
    expect(invalidate).toHaveBeenCalledTimes(2);
    expect(invalidate).toHaveBeenCalledWith(['Source']);
    expect(toasts(store)).toEqual([]);
  });
});
