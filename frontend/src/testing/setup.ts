import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { setAccessTokenGetter, setAccessTokenRenewer } from '@/api/accessToken';
import { closeSocket } from '@/api/socket';
import { removeFakeLocks } from './fakeLocks';
import { installFakeSockets } from './fakeSocket';
import { browserSession, server } from './server';

// jsdom lacks a few browser APIs that Radix primitives use.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });

// fetchBaseQuery builds `new Request('/api/...')`; Node's Request needs an absolute URL.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, window.location.origin) : input, init);
  }
};

// findBy*/waitFor give up after 1 s by default, which a 2-core CI machine busy with Rust builds
// missed (a sign-in landing on the Vault, 2026-11-26); a screen that never shows still fails.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// The screens are lazy route chunks. Loading them up front keeps a first findByRole from racing a
// cold module transform when the machine is busy (it made hand-off tests flaky at 1 s).
beforeAll(async () => {
  await Promise.all([
    import('@/features/uploads/BulkUploadPage'),
    import('@/features/transcripts/CreateTranscriptsPage'),
    import('@/features/library/VaultPage'),
    import('@/features/discovery/FindVideosPage'),
    import('@/features/discovery/SourcesPage'),
    import('@/features/downloads/DownloadsPage'),
    import('@/features/settings/SettingsPage'),
    import('@/features/conversion/ConvertPage'),
    import('@/features/admin/UsersAdmin'),
  ]);
});
beforeEach(() => {
  installFakeSockets();
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  closeSocket();
  setAccessTokenGetter(() => null);
  setAccessTokenRenewer(null);
  browserSession.token = null;
  removeFakeLocks();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterAll(() => server.close());
