import { accountApi } from '@/api/accountApi';
import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';
import type { AuthUser } from './authSlice';
import { parseExpiresAt } from './localSession';

export type Credentials = Pick<Schema<'Credentials'>, 'email' | 'password'>;

/** Sign-in: the credentials and, for an account with two-factor sign-in on, the 6-digit code. */
export type LoginRequest = Schema<'Credentials'>;

/** `invitation`: the token of the invitation link (`/sign-up?invitation=…`), when there is one. */
export type SignupRequest = Schema<'SignUp'>;

/** The answer of sign-in and sign-up: a short-lived access token and who signed in. */
export type AuthSession = Schema<'SignedIn'>;

/** A new access token for the same session: `/auth/refresh` and `/auth/password` answer it. */
export type TokenGrantResponse = Schema<'IssuedToken'>;

export type ChangePasswordRequest = Schema<'PasswordChange'>;

/** `POST /auth/2fa/setup`: a new pending secret (base32) and its `otpauth://totp/…` URL. */
export type TwoFactorSetup = Schema<'TwoFactorSetupView'>;

export type TwoFactorState = Schema<'TwoFactorView'>;
/** Turned on: the state and the recovery codes, shown once. */
export type TwoFactorEnabled = Schema<'TwoFactorEnabledView'>;

export type DisableTwoFactorRequest = Schema<'PasswordAndCode'>;

export type InvitationCheck = Schema<'OpenInvitationView'>;

/** The account row shows the answer at once; the refetch of `GET /api/account` follows. */
async function showTwoFactorState(
  dispatch: (action: ReturnType<typeof accountApi.util.updateQueryData>) => unknown,
  queryFulfilled: Promise<{ data: TwoFactorState }>,
) {
  try {
    const { data } = await queryFulfilled;
    dispatch(
      accountApi.util.updateQueryData('getAccount', undefined, (account) => {
        account.twoFactorEnabled = data.twoFactorEnabled;
      }),
    );
  } catch {
    // Refused: the dialog shows why; nothing changed.
  }
}

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthSession, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_SignedIn'>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
    signup: build.mutation<AuthSession, SignupRequest>({
      query: (body) => ({ url: '/auth/signup', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_SignedIn'>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
    /** Public: 200 while the invitation can be used, 404 when unknown, expired or used. */
    checkInvitation: build.query<InvitationCheck, string>({
      query: (token) => `/auth/invitations/${encodeURIComponent(token)}`,
      transformResponse: (response: Schema<'Envelope_OpenInvitationView'>) => response.data,
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
      transformResponse: (response: Schema<'Envelope_IssuedToken'>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
    /**
     * A new pending secret; nothing changes until `enable` confirms a code made from it. Needs the
     * password (and, while a factor is active, a current code): a session alone cannot change it.
     */
    setupTwoFactor: build.mutation<TwoFactorSetup, Schema<'TwoFactorSetup'>>({
      query: (body) => ({ url: '/auth/2fa/setup', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_TwoFactorSetupView'>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
    /**
     * Confirms the pending secret with a code from the app: sign-in asks for a code from now on.
     * Answers the ten recovery codes, shown this once.
     */
    enableTwoFactor: build.mutation<TwoFactorEnabled, Schema<'Code'>>({
      query: (body) => ({ url: '/auth/2fa/enable', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_TwoFactorEnabledView'>) => response.data,
      onQueryStarted: async (_request, { dispatch, queryFulfilled }) => showTwoFactorState(dispatch, queryFulfilled),
      invalidatesTags: ['Account'],
      extraOptions: { maxRetries: 0 },
    }),
    /** Needs the password and a current code. */
    disableTwoFactor: build.mutation<TwoFactorState, DisableTwoFactorRequest>({
      query: (body) => ({ url: '/auth/2fa/disable', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_TwoFactorView'>) => response.data,
      onQueryStarted: async (_request, { dispatch, queryFulfilled }) => showTwoFactorState(dispatch, queryFulfilled),
      invalidatesTags: ['Account'],
      extraOptions: { maxRetries: 0 },
    }),
  }),
});

export const {
  useSetupTwoFactorMutation,
  useEnableTwoFactorMutation,
  useDisableTwoFactorMutation,
} = authApi;

export const { useLoginMutation, useSignupMutation, useCheckInvitationQuery, useLogoutAllMutation, useChangePasswordMutation } =
  authApi;

export function toAuthUser(session: AuthSession): AuthUser {
  return { id: session.user.id, email: session.user.email, isAdmin: session.user.isAdmin === true };
}

/** The store's form of a session answer: who, the token and when it expires. */
export function toLocalSession(session: AuthSession) {
  return { token: session.token, user: toAuthUser(session), expiresAt: parseExpiresAt(session.expiresAt) };
}

/**
 * Whether a refused sign-in asks for the code of the authenticator app: a 401 whose body says
 * `error.totpRequired: true` (the password was right; the code was missing or wrong).
 */
export function isTotpRequired(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('data' in error)) return false;
  const body = (error as { data?: unknown }).data;
  if (!body || typeof body !== 'object') return false;
  const inner = (body as { error?: unknown }).error;
  return !!inner && typeof inner === 'object' && (inner as { totpRequired?: unknown }).totpRequired === true;
}

/** A code as typed (spaces, dashes) reduced to its digits. */
export function normalizeTotpCode(value: string): string {
  return value.replace(/\D/g, '');
}

/** A recovery code as handed out: two groups of five of Crockford's base32 (no i, l, o or u). */
const RECOVERY_CODE = /^[0-9a-hjkmnp-tv-z]{5}-?[0-9a-hjkmnp-tv-z]{5}$/i;

/** Whether a typed value is a recovery code rather than an authenticator code. */
export function isRecoveryCode(value: string): boolean {
  return RECOVERY_CODE.test(value.replace(/\s+/g, ''));
}

/**
 * What a second-factor field sends: a recovery code as typed (lower case, spaces dropped), or an
 * authenticator code reduced to its digits.
 */
export function normalizeSecondFactorCode(value: string): string {
  return isRecoveryCode(value) ? value.replace(/\s+/g, '').toLowerCase() : normalizeTotpCode(value);
}

export const TOTP_CODE_LENGTH = 6;
