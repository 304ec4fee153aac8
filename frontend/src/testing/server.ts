import { setupServer } from 'msw/node';

/** MSW server shared by all tests; each test adds its handlers with `server.use(...)`. */
export const server = setupServer();
