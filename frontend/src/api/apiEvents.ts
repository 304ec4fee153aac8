import { createAction } from '@reduxjs/toolkit';
import { serverMessage } from './errors';

/**
 * Any API answer with status 401: the session is over and the user must sign in again. `message`
 * is what the server said about it (e.g. that an admin disabled the account), null when nothing.
 */
export const sessionExpired = createAction('api/sessionExpired', (end?: { message?: string | null }) => ({
  payload: { message: end?.message?.trim() || null },
}));

/** `sessionExpired` carrying the message of a 401's body (`{"error": {"message"}}`), if any. */
export function sessionExpiredBy(body: unknown) {
  return sessionExpired({ message: serverMessage(body) });
}
