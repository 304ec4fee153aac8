import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { applyTheme, lastThemeChoice, useTheme } from './theme';

/** A prefers-color-scheme that the test can flip, telling the listeners like a browser does. */
function fakeColorScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    get matches() {
      return dark;
    },
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.spyOn(window, 'matchMedia').mockImplementation(() => media as unknown as MediaQueryList);
  return {
    set(next: boolean) {
      dark = next;
      listeners.forEach((listener) => listener());
    },
    listeners,
  };
}

describe('theme', () => {
  it('puts light or dark on <html>, and system as the system says', () => {
    fakeColorScheme(true);
    expect(applyTheme('light')).toBe('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(applyTheme('system')).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });

  it('follows the system live while the choice is system, and stops when it is not', () => {
    const scheme = fakeColorScheme(false);
    const { rerender, unmount } = renderHook(({ choice }) => useTheme(choice), { initialProps: { choice: 'system' as 'system' | 'dark' } });
    expect(document.documentElement.dataset.theme).toBe('light');
    scheme.set(true);
    expect(document.documentElement.dataset.theme).toBe('dark');
    scheme.set(false);
    expect(document.documentElement.dataset.theme).toBe('light');
    rerender({ choice: 'dark' });
    expect(scheme.listeners.size).toBe(0);
    scheme.set(false);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(lastThemeChoice()).toBe('dark');
    unmount();
  });

  it('remembers the last choice for the next visit (system when there is none)', () => {
    expect(lastThemeChoice()).toBe('system');
    window.localStorage.setItem('theme', 'light');
    expect(lastThemeChoice()).toBe('light');
    window.localStorage.setItem('theme', 'purple');
    expect(lastThemeChoice()).toBe('system');
  });
});
