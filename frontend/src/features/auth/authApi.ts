import { baseApi, type Envelope } from '@/api/baseApi';
import type { AuthUser } from './authSlice';
import { parseExpiresAt } from './localSession';

export interface Credentials {
  email: string;
  password: string;
}

export interface SignupRequest extends Credentials {
  /** The token of the invitation link (`/sign-up?invitation=…`), when there is one. */
  invitation?: string;
}

/** The answer of sign-in and sign-up: a short-lived access token and who signed in. */
export interface AuthSession {
  token: string;
  /** RFC 3339 (a number of seconds or milliseconds since the epoch is accepted as well). */
  expiresAt?: string | number | null;
  user: { id: string; email: string; isAdmin?: boolean };
}

/** A new access token for the same session: `/auth/refresh` and `/auth/password` answer it. */
export interface TokenGrantResponse {
  token: string;
  expiresAt?: string | number | null;
}

export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
}

export interface InvitationCheck {
  expiresAt: string;
}

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthSession, Credentials>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
      transformResponse: (response: Envelope<AuthSession>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
    signup: build.mutation<AuthSession, SignupRequest>({
      query: (body) => ({ url: '/auth/signup', method: 'POST', body }),
      transformResponse: (response: Envelope<AuthSession>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
    /** Public: 200 while the invitation can be used, 404 when unknown, expired or used. */
    checkInvitation: build.query<InvitationCheck, string>({
      query: (token) => `/auth/invitations/${encodeURIComponent(token)}`,
      transformResponse: (response: Envelope<InvitationCheck>) => response.data,
      keepUnusedDataFor: 0,
      extraOptions: { maxRetries: 0 },
    }),
    /** Ends every session of this account, this one included. */
    logoutAll: build.mutation<void, void>({
      query: () => ({ url: '/auth/logout-all', method: 'POST' }),
      extraOptions: { maxRetries: 0 },
    }),
    /** Every other session ends; this one goes on with the token of the answer. */
    changePassword: build.mutation<TokenGrantResponse, ChangePasswordRequest>({
      query: (body) => ({ url: '/auth/password', method: 'POST', body }),
      transformResponse: (response: Envelope<TokenGrantResponse>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
  }),
});

export const { useLoginMutation, useSignupMutation, useCheckInvitationQuery, useLogoutAllMutation, useChangePasswordMutation } =
  authApi;

export function toAuthUser(session: AuthSession): AuthUser {
  return { id: session.user.id, email: session.user.email, isAdmin: session.user.isAdmin === true };
}

/** The store's form of a session answer: who, the token and when it expires. */
export function toLocalSession(session: AuthSession) {
  return { token: session.token, user: toAuthUser(session), expiresAt: parseExpiresAt(session.expiresAt) };
}
