import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeSockets, type FakeSocket } from '@/testing/fakeSocket';
import { renderWithProviders, TEST_TOKEN, TEST_USER } from '@/testing/renderWithProviders';

async function renderSignedIn(route = '/') {
  const sockets = installFakeSockets();
  const view = renderWithProviders({ route });
  await waitFor(() => expect(sockets.sockets).toHaveLength(1));
  return { ...view, sockets, socket: sockets.latest() };
}

function emit(socket: FakeSocket, event: string, ...args: unknown[]) {
  act(() => socket.serverEmit(event, ...args));
}

const toastWith = async (text: string) => (await screen.findByText(text)).closest('li');

describe('realtime connection', () => {
  it('opens one socket for the signed-in user with the spec options', async () => {
    const { sockets, socket } = await renderSignedIn();
    expect(socket.url).toBe(window.location.origin);
    expect(socket.options).toEqual({
      transports: ['websocket', 'polling'],
      timeout: 10000,
      reconnectionAttempts: 5,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      auth: expect.any(Function),
    });
    // socket.io asks for `auth` on every connection attempt.
    expect(await socket.authPayload()).toEqual({ userId: TEST_USER.id, token: TEST_TOKEN });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sockets.sockets).toHaveLength(1);
  });

  it('opens no socket while signed out', async () => {
    const sockets = installFakeSockets();
    renderWithProviders({ route: '/', signedIn: false });
    await screen.findByRole('heading', { name: 'Sign in to Scribevault' });
    expect(sockets.sockets).toHaveLength(0);
  });

  it('shows Connected / Disconnected with Reconnect / Connect and toasts the connection', async () => {
    const { socket } = await renderSignedIn();
    expect(await screen.findByText('Disconnected')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect' })).toBeInTheDocument();

    emit(socket, 'connect');
    expect(screen.getByText('Connected', { selector: '.connection-badge' })).toHaveClass('badge-success');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
    expect(await screen.findByText('Real-time updates are now active.')).toBeInTheDocument();

    emit(socket, 'disconnect', 'transport close');
    expect(screen.getByText('Disconnected')).toHaveClass('badge-danger');
    expect(socket.connectCalls).toBe(0);
  });

  it('reconnects by itself after a server-initiated disconnect', async () => {
    const { socket } = await renderSignedIn();
    emit(socket, 'connect');
    emit(socket, 'disconnect', 'io server disconnect');
    expect(socket.connectCalls).toBe(1);
  });

  it('Connect and Reconnect buttons drive the socket', async () => {
    const { socket, user } = await renderSignedIn();
    await user.click(await screen.findByRole('button', { name: 'Connect' }));
    expect(socket.connectCalls).toBe(1);
    expect(socket.disconnectCalls).toBe(0);
    emit(socket, 'connect');
    await user.click(screen.getByRole('button', { name: 'Reconnect' }));
    expect(socket.disconnectCalls).toBe(1);
    expect(socket.connectCalls).toBe(2);
  });
});

describe('realtime connection: errors, events and sign-out', () => {
  it('toasts connect errors (once per outage) and reconnections', async () => {
    const { socket } = await renderSignedIn();
    emit(socket, 'connect_error', new Error('xhr poll error'));
    emit(socket, 'connect_error', new Error('xhr poll error'));
    const toast = await toastWith('Connection Error');
    expect(toast).toHaveClass('toast-destructive');
    expect(screen.getAllByText('Failed to connect to real-time updates.')).toHaveLength(1);

    act(() => socket.managerEmit('reconnect', 2));
    emit(socket, 'connect');
    expect(await screen.findByText('Reconnected')).toBeInTheDocument();
    expect(screen.getByText('Real-time updates are restored.')).toBeInTheDocument();
    expect(screen.queryByText('Real-time updates are now active.')).not.toBeInTheDocument();
  });

  it('reacts to sourceUpdate and libraryUpdate', async () => {
    const { socket } = await renderSignedIn();
    emit(socket, 'sourceUpdate', { type: 'created', source: { title: 'Lex Fridman' } });
    expect(await screen.findByText('Source Added')).toBeInTheDocument();
    expect(screen.getByText('Lex Fridman')).toBeInTheDocument();
    emit(socket, 'sourceUpdate', { type: 'deleted', source: { title: 'Old Channel' } });
    expect(await screen.findByText('Source Removed')).toBeInTheDocument();
    emit(socket, 'libraryUpdate', { type: 'created', transcript: { title: 'Episode 12' } });
    expect(await screen.findByText('New Transcript')).toBeInTheDocument();
    expect(screen.getByText('Episode 12 has been processed and added to your library')).toBeInTheDocument();
  });

  it('shows notifications and system messages, destructive for errors', async () => {
    const { socket } = await renderSignedIn();
    emit(socket, 'notification', { title: 'Heads up', message: 'Your export is ready', type: 'info' });
    expect(await toastWith('Heads up')).not.toHaveClass('toast-destructive');
    expect(screen.getByText('Your export is ready')).toBeInTheDocument();
    emit(socket, 'systemMessage', { title: 'Maintenance', content: 'Workers are down', level: 'error' });
    expect(await toastWith('Maintenance')).toHaveClass('toast-destructive');
    expect(screen.getByText('Workers are down')).toBeInTheDocument();
  });

  it('keeps at most three toasts on screen', async () => {
    const { socket } = await renderSignedIn();
    for (const title of ['one', 'two', 'three', 'four']) emit(socket, 'notification', { title, message: `${title}!` });
    expect(await screen.findByText('four')).toBeInTheDocument();
    expect(screen.queryByText('one')).not.toBeInTheDocument();
  });

  it('closes the socket on sign-out', async () => {
    const { socket, user } = await renderSignedIn();
    emit(socket, 'connect');
    await user.click(screen.getByRole('button', { name: 'Account: ada@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in to Scribevault' });
    expect(socket.disconnectCalls).toBe(1);
    expect(socket.listenerCount('connect')).toBe(0);
  });
});
