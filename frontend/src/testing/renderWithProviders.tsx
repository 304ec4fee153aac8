import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { App } from '@/app/App';
import { appRoutes } from '@/app/routes';
import { setupStore, type AppStore, type RootState } from '@/app/store';
import type { AppConfig } from '@/config/appConfig';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from '@/features/auth/localSession';

export const TEST_USER = { id: 'user-1', email: 'ada@example.com' };
export const TEST_TOKEN = 'header.eyJzdWIiOiJ1c2VyLTEifQ.signature';

/** Stores a local session the way a real sign-in does, so the app starts signed in. */
export function signInAsTestUser(user = TEST_USER, token = TEST_TOKEN) {
  window.localStorage.setItem(AUTH_TOKEN_KEY, token);
  window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
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
