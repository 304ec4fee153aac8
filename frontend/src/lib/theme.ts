import { useEffect } from 'react';
import { readString, writeString } from './storage';

/**
 * The colour theme of the whole app: `data-theme="light|dark"` on `<html>`, which styles.css
 * turns into its palette. `system` follows the operating system's `prefers-color-scheme`, live.
 */
export type ThemeChoice = 'light' | 'dark' | 'system';
export type AppliedTheme = 'light' | 'dark';

/**
 * The last theme applied, kept in localStorage so the next visit starts in it instead of
 * flashing light while the settings load. The server's setting wins as soon as it arrives.
 */
const LAST_THEME_KEY = 'theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemPrefersDark(): boolean {
  try {
    return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
  } catch {
    return false;
  }
}

export function resolveTheme(choice: ThemeChoice): AppliedTheme {
  if (choice === 'system') return systemPrefersDark() ? 'dark' : 'light';
  return choice;
}

export function applyTheme(choice: ThemeChoice): AppliedTheme {
  const applied = resolveTheme(choice);
  const root = document.documentElement;
  root.dataset.theme = applied;
  root.style.colorScheme = applied;
  return applied;
}

/** The theme of the previous visit (`system` when there was none). */
export function lastThemeChoice(): ThemeChoice {
  const stored = readString('local', LAST_THEME_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** Applies `choice` now and, for `system`, again whenever the system's scheme changes. */
export function useTheme(choice: ThemeChoice): void {
  useEffect(() => {
    applyTheme(choice);
    writeString('local', LAST_THEME_KEY, choice);
    if (choice !== 'system' || typeof window.matchMedia !== 'function') return undefined;
    const media = window.matchMedia(DARK_QUERY);
    const follow = () => applyTheme('system');
    media.addEventListener?.('change', follow);
    return () => media.removeEventListener?.('change', follow);
  }, [choice]);
}
