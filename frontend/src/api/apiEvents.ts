import { createAction } from '@reduxjs/toolkit';

/** Any API answer with status 401: the session is over and the user must sign in again. */
export const sessionExpired = createAction('api/sessionExpired');
