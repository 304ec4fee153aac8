import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { sessionExpired } from '@/api/apiEvents';

export type AuthMode = 'local' | 'oidc';
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthUser {
  id: string;
  email: string | null;
  name?: string | null;
  picture?: string | null;
}

export interface AuthState {
  mode: AuthMode | null;
  status: AuthStatus;
  user: AuthUser | null;
  /** The JWT of a local account; OIDC tokens stay inside the Auth0 SDK. */
  token: string | null;
}

const initialState: AuthState = { mode: null, status: 'loading', user: null, token: null };

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    localSessionRestored(state, action: PayloadAction<{ token: string; user: AuthUser } | null>) {
      state.mode = 'local';
      state.token = action.payload?.token ?? null;
      state.user = action.payload?.user ?? null;
      state.status = action.payload ? 'authenticated' : 'unauthenticated';
    },
    localSignedIn(state, action: PayloadAction<{ token: string; user: AuthUser }>) {
      state.mode = 'local';
      state.token = action.payload.token;
      state.user = action.payload.user;
      state.status = 'authenticated';
    },
    oidcSessionChanged(state, action: PayloadAction<{ isLoading: boolean; user: AuthUser | null }>) {
      state.mode = 'oidc';
      state.token = null;
      state.user = action.payload.user;
      state.status = action.payload.isLoading ? 'loading' : action.payload.user ? 'authenticated' : 'unauthenticated';
    },
    signedOut(state) {
      state.status = 'unauthenticated';
      state.user = null;
      state.token = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionExpired, (state) => {
      state.status = 'unauthenticated';
      state.user = null;
      state.token = null;
    });
  },
});

export const { localSessionRestored, localSignedIn, oidcSessionChanged, signedOut } = authSlice.actions;
export const authReducer = authSlice.reducer;

export const selectAuth = (state: { auth: AuthState }) => state.auth;
export const selectAuthStatus = (state: { auth: AuthState }) => state.auth.status;
export const selectCurrentUser = (state: { auth: AuthState }) => state.auth.user;
