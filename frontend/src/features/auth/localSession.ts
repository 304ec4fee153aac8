import { readJson, readString, removeKey, writeJson, writeString } from '@/lib/storage';
import type { AuthUser } from './authSlice';

/** localStorage keys of a local-account session. */
export const AUTH_TOKEN_KEY = 'authToken';
export const AUTH_USER_KEY = 'authUser';
/** When the access token expires, in milliseconds since the epoch (the server's `expiresAt`). */
export const AUTH_EXPIRES_AT_KEY = 'authTokenExpiresAt';

/** A local session as kept in the store and in localStorage. */
export interface StoredSession {
  token: string;
  user: AuthUser;
  /** Milliseconds since the epoch; null when neither the server nor the JWT says. */
  expiresAt: number | null;
}

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

/**
 * The server's `expiresAt` in milliseconds since the epoch. An RFC 3339 string is what the gateway
 * sends; a number is accepted too (seconds when it is too small to be milliseconds).
 */
export function parseExpiresAt(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string' && value.trim()) {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/** When `token` expires: the stored `expiresAt`, else the JWT's own `exp`. */
export function tokenExpiry(token: string, expiresAt: number | null): number | null {
  if (expiresAt !== null) return expiresAt;
  const exp = jwtExpiry(token);
  return exp === null ? null : exp * 1000;
}

/**
 * The session kept by the last visit. An access token past its expiry is still returned: the
 * session it belongs to may well be alive on the server, and `/api/auth/refresh` decides that.
 */
export function readStoredSession(): StoredSession | null {
  const token = readString('local', AUTH_TOKEN_KEY);
  const user = readJson<AuthUser>('local', AUTH_USER_KEY);
  if (!token || !user || typeof user.id !== 'string') return null;
  const stored = readString('local', AUTH_EXPIRES_AT_KEY);
  const expiresAt = tokenExpiry(token, stored === null ? null : parseExpiresAt(Number(stored)));
  return { token, user, expiresAt };
}

export function storeSession(session: StoredSession): void {
  writeString('local', AUTH_TOKEN_KEY, session.token);
  writeJson('local', AUTH_USER_KEY, session.user);
  storeTokenExpiry(session.expiresAt);
}

/** A renewed access token of the same session (the user does not change). */
export function storeRenewedToken(token: string, expiresAt: number | null): void {
  writeString('local', AUTH_TOKEN_KEY, token);
  storeTokenExpiry(expiresAt);
}

function storeTokenExpiry(expiresAt: number | null): void {
  if (expiresAt === null) removeKey('local', AUTH_EXPIRES_AT_KEY);
  else writeString('local', AUTH_EXPIRES_AT_KEY, String(expiresAt));
}

export function clearStoredSession(): void {
  removeKey('local', AUTH_TOKEN_KEY);
  removeKey('local', AUTH_USER_KEY);
  removeKey('local', AUTH_EXPIRES_AT_KEY);
}
