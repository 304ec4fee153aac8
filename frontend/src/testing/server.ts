import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { DEFAULT_USER_SETTINGS } from '@/api/userSettingsApi';

/**
 * Handlers every test has: the app shell loads the user's settings as soon as someone is signed
 * in, so each test starts with the defaults stored; Settings asks who is signed in (not an admin
 * unless a test says so); sign-out ends the session on the server. A test overrides them with
 * `server.use`.
 */
export const defaultHandlers = [
  http.get('/api/user/settings', () => HttpResponse.json({ data: DEFAULT_USER_SETTINGS })),
  http.get('/api/account', () => HttpResponse.json({ data: { id: 'user-1', email: 'ada@example.com', isAdmin: false } })),
  http.post('/api/auth/logout', () => new HttpResponse(null, { status: 204 })),
];

/** MSW server shared by all tests; each test adds its handlers with `server.use(...)`. */
export const server = setupServer(...defaultHandlers);
