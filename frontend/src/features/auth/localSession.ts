import { readJson, removeKey, writeJson } from '@/lib/storage';
import type { AuthUser } from './authSlice';

/**
 * localStorage keeps who signed in last (not secret: id, email, whether an admin), so a reload
 * can show them as soon as `POST /api/auth/refresh` answers. No token is ever written there: the
 * access token lives in the store only, and the session's refresh credential is an httpOnly
 * cookie that script cannot read.
 */
export const AUTH_USER_KEY = 'authUser';

/**
 * Where older versions kept the access token and its expiry. Such a token can no longer mint
 * another (refresh takes the cookie only), but it is a bearer credential until it expires, so
 * the app removes what an older version left.
 */
export const LEGACY_TOKEN_KEYS = ['authToken', 'authTokenExpiresAt'] as const;

/** A local session as kept in the store. */
export interface LocalSession {
  token: string;
  user: AuthUser;
  /** Milliseconds since the epoch; null when neither the server nor the JWT says. */
  expiresAt: number | null;
}

/** The claims of a JWT, or null when it is not one whose payload can be read. */
function jwtClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Seconds since the epoch at which a JWT expires, or null when it carries no readable `exp`. */
export function jwtExpiry(token: string): number | null {
  const exp = jwtClaims(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

/** Whose token it is (the JWT's `sub`, the account id), or null when it cannot be read. */
export function jwtSubject(token: string): string | null {
  const sub = jwtClaims(token)?.sub;
  return typeof sub === 'string' && sub ? sub : null;
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

/** When `token` expires: the server's `expiresAt`, else the JWT's own `exp`. */
export function tokenExpiry(token: string, expiresAt: number | null): number | null {
  if (expiresAt !== null) return expiresAt;
  const exp = jwtExpiry(token);
  return exp === null ? null : exp * 1000;
}

/** Who signed in last in this browser, or null. */
export function readStoredUser(): AuthUser | null {
  const user = readJson<AuthUser>('local', AUTH_USER_KEY);
  return user && typeof user === 'object' && typeof user.id === 'string' ? user : null;
}

export function storeUser(user: AuthUser): void {
  writeJson('local', AUTH_USER_KEY, user);
}

/**
 * Forgets who signed in, when it is `userId`: another tab may have signed someone else in since,
 * and its record is not this tab's to remove.
 */
export function clearStoredUser(userId: string | null): void {
  const stored = readStoredUser();
  if (stored && userId !== null && stored.id !== userId) return;
  removeKey('local', AUTH_USER_KEY);
}

/** Removes the token an older version of the app kept in localStorage. */
export function removeLegacyTokens(): void {
  for (const key of LEGACY_TOKEN_KEYS) removeKey('local', key);
}
