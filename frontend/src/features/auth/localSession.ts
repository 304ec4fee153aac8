import { readJson, readString, removeKey, writeJson, writeString } from '@/lib/storage';
import type { AuthUser } from './authSlice';

/** localStorage keys of a local-account session. */
export const AUTH_TOKEN_KEY = 'authToken';
export const AUTH_USER_KEY = 'authUser';

/** Seconds since the epoch at which a JWT expires, or null when it carries no readable `exp`. */
export function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

export function readStoredSession(now = Date.now()): { token: string; user: AuthUser } | null {
  const token = readString('local', AUTH_TOKEN_KEY);
  const user = readJson<AuthUser>('local', AUTH_USER_KEY);
  if (!token || !user || typeof user.id !== 'string') return null;
  const exp = jwtExpiry(token);
  if (exp !== null && exp * 1000 <= now) {
    clearStoredSession();
    return null;
  }
  return { token, user };
}

export function storeSession(token: string, user: AuthUser): void {
  writeString('local', AUTH_TOKEN_KEY, token);
  writeJson('local', AUTH_USER_KEY, user);
}

export function clearStoredSession(): void {
  removeKey('local', AUTH_TOKEN_KEY);
  removeKey('local', AUTH_USER_KEY);
}
