import { baseApi, type Envelope } from '@/api/baseApi';
import type { AuthUser } from './authSlice';

export interface Credentials {
  email: string;
  password: string;
}

export interface AuthSession {
  token: string;
  user: { id: string; email: string };
}

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthSession, Credentials>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
      transformResponse: (response: Envelope<AuthSession>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
    signup: build.mutation<AuthSession, Credentials>({
      query: (body) => ({ url: '/auth/signup', method: 'POST', body }),
      transformResponse: (response: Envelope<AuthSession>) => response.data,
      extraOptions: { maxRetries: 0 },
    }),
  }),
});

export const { useLoginMutation, useSignupMutation } = authApi;

export function toAuthUser(session: AuthSession): AuthUser {
  return { id: session.user.id, email: session.user.email };
}
