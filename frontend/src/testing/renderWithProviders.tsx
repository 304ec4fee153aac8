import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { App } from '@/app/App';
import { appRoutes } from '@/app/routes';
import { setupStore, type AppStore, type RootState } from '@/app/store';
import type { AppConfig } from '@/config/appConfig';
import { AUTH_USER_KEY } from '@/features/auth/localSession';
import { browserSession } from './server';

export const TEST_USER = { id: 'user-1', email: 'ada@example.com' };
export const TEST_TOKEN = 'header.eyJzdWIiOiJ1c2VyLTEifQ.signature';

/**
 * Leaves the browser as a real sign-in does, so the app starts signed in: the refresh cookie of a
 * live session (the default refresh handler answers `token`) and who signed in (localStorage).
 */
export function signInAsTestUser(user = TEST_USER, token = TEST_TOKEN) {
  browserSession.token = token;
  window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
}

/** A token shaped like the gateway's (a JWT whose `sub` is the account id); its signature is not. */
export function testJwt(sub: string, extra: Record<string, unknown> = {}): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub, ...extra })}.c2lnbmF0dXJl`;
}

/** A JWT anywhere in a string (its header is base64url JSON, so it starts with `eyJ`). */
const JWT_PATTERN = /eyJ[\w-]*\.[\w-]+\.[\w-]+/;

/**
 * The localStorage entries that hold a token: one of `tokens`, or anything shaped like a JWT.
 * The access token lives in memory only; nothing that can act as the user is kept there.
 */
export function tokensInLocalStorage(tokens: string[] = []): string[] {
  const found: string[] = [];
  for (let index = 0; index < window.localStorage.length; index += 1) {
    const key = window.localStorage.key(index);
    if (key === null) continue;
    const value = window.localStorage.getItem(key) ?? '';
    if (JWT_PATTERN.test(value) || tokens.some((token) => token && value.includes(token))) found.push(`${key}=${value}`);
  }
  return found;
}

interface Options {
  route?: string;
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  config?: AppConfig;
  signedIn?: boolean;
  /** user-event options; pass `{ advanceTimers: vi.advanceTimersByTime }` with fake timers. */
  userOptions?: Parameters<typeof userEvent.setup>[0];
}

/** Renders the whole app (real store, routes, auth and toasts) at `route`. */
export function renderWithProviders({
  route = '/',
  preloadedState,
  store,
  config = { authMode: 'local' },
  signedIn = true,
  userOptions,
}: Options = {}) {
  if (signedIn) signInAsTestUser();
  const appStore = store ?? setupStore(preloadedState);
  const router = createMemoryRouter(appRoutes, { initialEntries: [route] });
  const user = userEvent.setup(userOptions);
  const result = render(<App store={appStore} config={config} router={router} />);
  return { ...result, store: appStore, router, user };
}
