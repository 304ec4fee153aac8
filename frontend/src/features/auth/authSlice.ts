import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { sessionExpired } from '@/api/apiEvents';
import type { LocalSession } from './localSession';

export type AuthMode = 'local' | 'oidc';
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthUser {
  id: string;
  email: string | null;
  name?: string | null;
  picture?: string | null;
  /** What sign-in said; Settings asks `GET /api/account` instead, which works in both modes. */
  isAdmin?: boolean;
}

export interface AuthState {
  mode: AuthMode | null;
  status: AuthStatus;
  user: AuthUser | null;
  /** The access token of a local account; OIDC tokens stay inside the Auth0 SDK. */
  token: string | null;
  /** When the local access token expires (ms since the epoch), null when unknown. */
  expiresAt: number | null;
  /** When to renew it (ms since the epoch): a minute before expiry, see `renewalTime`. */
  renewAt: number | null;
  /**
   * Local accounts, while the session is being restored on start ('loading'): the server could
   * not be reached and the app is trying again, rather than signing the user out.
   */
  reconnecting: boolean;
  /**
   * Why the last session ended when the server ended it (a 401), for the sign-in screen: the
   * server's message (e.g. that an admin disabled the account) or `SESSION_ENDED_NOTICE`. Null
   * after a sign-out of one's own and once someone signs in.
   */
  signOutNotice: string | null;
}

/** What the sign-in screen says after a 401 that gave no reason beyond an ended session. */
export const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';

/** The gateway's messages for a token it does not take, which say nothing the user can act on. */
const GENERIC_TOKEN_MESSAGES = new Set(['Invalid or expired token', 'Authentication required']);

/** The notice for a session the server ended with `message` (its 401's message, if any). */
export function signOutNoticeFor(message: string | null): string {
  return message && !GENERIC_TOKEN_MESSAGES.has(message) ? message : SESSION_ENDED_NOTICE;
}

/** A local access token is renewed this long before it expires. */
export const RENEW_BEFORE_MS = 60_000;

/**
 * When to renew a token that expires at `expiresAt`: a minute before, or half-way through its life
 * when it lives less than two minutes (so a short lifetime never turns into a renewal loop).
 */
export function renewalTime(expiresAt: number | null, now: number): number | null {
  if (expiresAt === null) return null;
  const lead = Math.min(RENEW_BEFORE_MS, Math.max(0, (expiresAt - now) / 2));
  return expiresAt - lead;
}

/** A new access token: the token and when it expires (ms since the epoch). */
export interface AccessTokenGrant {
  token: string;
  expiresAt: number | null;
}

const initialState: AuthState = {
  mode: null,
  status: 'loading',
  user: null,
  token: null,
  expiresAt: null,
  renewAt: null,
  reconnecting: false,
  signOutNotice: null,
};

function clearSession(state: AuthState) {
  state.status = 'unauthenticated';
  state.user = null;
  state.token = null;
  state.expiresAt = null;
  state.renewAt = null;
  state.reconnecting = false;
}

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    /**
     * Start of a local-account visit: 'loading' until `POST /api/auth/refresh` (the session's
     * httpOnly cookie) says whether a session goes on in this browser.
     */
    localSessionRestoring(state) {
      state.mode = 'local';
      if (state.status !== 'authenticated') state.status = 'loading';
    },
    /** The restore could not reach the server; it is tried again (the screen says so). */
    localSessionReconnecting(state) {
      if (state.status === 'loading') state.reconnecting = true;
    },
    /**
     * What the restore found: the session with a fresh token, or none (`notice`: the server's
     * reason when it said more than that there is no session, e.g. that the account is disabled).
     */
    localSessionRestored: {
      reducer(state, action: PayloadAction<{ session: LocalSession | null; notice: string | null; renewAt: number | null }>) {
        const { session, notice, renewAt } = action.payload;
        state.mode = 'local';
        if (!session) {
          clearSession(state);
          state.signOutNotice = notice;
          return;
        }
        state.signOutNotice = null;
        state.token = session.token;
        state.user = session.user;
        state.expiresAt = session.expiresAt;
        state.renewAt = renewAt;
        state.reconnecting = false;
        state.status = 'authenticated';
      },
      prepare({ session, notice = null }: { session: LocalSession | null; notice?: string | null }) {
        return { payload: { session, notice, renewAt: session ? renewalTime(session.expiresAt, Date.now()) : null } };
      },
    },
    localSignedIn: {
      reducer(state, action: PayloadAction<{ token: string; user: AuthUser; expiresAt: number | null; renewAt: number | null }>) {
        state.mode = 'local';
        state.token = action.payload.token;
        state.user = action.payload.user;
        state.expiresAt = action.payload.expiresAt;
        state.renewAt = action.payload.renewAt;
        state.reconnecting = false;
        state.status = 'authenticated';
        state.signOutNotice = null;
      },
      prepare(session: { token: string; user: AuthUser; expiresAt: number | null }) {
        return { payload: { ...session, renewAt: renewalTime(session.expiresAt, Date.now()) } };
      },
    },
    /** A new access token for the signed-in user (refresh, or the new session of a password change). */
    localTokenRenewed: {
      reducer(state, action: PayloadAction<AccessTokenGrant & { renewAt: number | null }>) {
        if (!state.user) return;
        state.token = action.payload.token;
        state.expiresAt = action.payload.expiresAt;
        state.renewAt = action.payload.renewAt;
        state.status = 'authenticated';
      },
      prepare(grant: AccessTokenGrant) {
        return { payload: { ...grant, renewAt: renewalTime(grant.expiresAt, Date.now()) } };
      },
    },
    oidcSessionChanged(state, action: PayloadAction<{ isLoading: boolean; user: AuthUser | null }>) {
      state.mode = 'oidc';
      state.token = null;
      state.expiresAt = null;
      state.renewAt = null;
      state.reconnecting = false;
      state.user = action.payload.user;
      state.status = action.payload.isLoading ? 'loading' : action.payload.user ? 'authenticated' : 'unauthenticated';
      if (action.payload.user) state.signOutNotice = null;
    },
    signedOut(state) {
      clearSession(state);
      state.signOutNotice = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionExpired, (state, action) => {
      // Several calls may end at once: a later one may say more than 'ended'. A call that comes
      // back after a sign-out of one's own adds no notice.
      if (state.status !== 'unauthenticated' || state.signOutNotice === SESSION_ENDED_NOTICE) {
        state.signOutNotice = signOutNoticeFor(action.payload.message);
      }
      clearSession(state);
    });
  },
});

export const {
  localSessionRestoring,
  localSessionReconnecting,
  localSessionRestored,
  localSignedIn,
  localTokenRenewed,
  oidcSessionChanged,
  signedOut,
} = authSlice.actions;
export const authReducer = authSlice.reducer;

export const selectAuth = (state: { auth: AuthState }) => state.auth;
export const selectAuthStatus = (state: { auth: AuthState }) => state.auth.status;
export const selectCurrentUser = (state: { auth: AuthState }) => state.auth.user;
export const selectReconnecting = (state: { auth: AuthState }) => state.auth.reconnecting;
export const selectSignOutNotice = (state: { auth: AuthState }) => state.auth.signOutNotice;
