import { io, type ManagerOptions, type SocketOptions } from 'socket.io-client';

/** Connection options of the product spec (docs/product-spec.md §7, §9): websocket then polling, 10 s timeout, 5 attempts, 1–5 s. */
export const SOCKET_OPTIONS = {
  transports: ['websocket', 'polling'],
  timeout: 10_000,
  reconnectionAttempts: 5,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
} as const satisfies Partial<ManagerOptions & SocketOptions>;

/** What the server reads to authenticate the connection (docs/product-spec.md §6): the user id and the token. */
export interface SocketAuth {
  userId: string;
  token: string | null;
}

/**
 * socket.io-client calls this before every connection attempt, reconnects included, so a socket
 * that comes back after the access token was renewed sends the current token, not the first one.
 */
export type SocketAuthProvider = (callback: (auth: SocketAuth) => void) => void;

/**
 * The part of a socket.io client the app uses. Tests inject a fake that implements it.
 * `io` is the manager, which emits 'reconnect'.
 */
export interface RealtimeSocket {
  readonly connected: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event?: string, listener?: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
  removeAllListeners(event?: string): unknown;
  io: {
    on(event: string, listener: (...args: never[]) => void): unknown;
    off(event?: string, listener?: (...args: never[]) => void): unknown;
  };
}

export type SocketFactory = (url: string, options: typeof SOCKET_OPTIONS & { auth: SocketAuthProvider }) => RealtimeSocket;

const defaultFactory: SocketFactory = (url, options) =>
  io(url, { ...options, transports: [...options.transports] });

let factory: SocketFactory = defaultFactory;
let current: RealtimeSocket | null = null;

/** Replaces how sockets are made (tests pass a fake); `null` restores socket.io-client. */
export function setSocketFactory(next: SocketFactory | null): void {
  factory = next ?? defaultFactory;
}

/** Opens the session's one socket, closing any previous one first. */
export function openSocket(auth: SocketAuthProvider): RealtimeSocket {
  closeSocket();
  current = factory(window.location.origin, { ...SOCKET_OPTIONS, auth });
  return current;
}

export function currentSocket(): RealtimeSocket | null {
  return current;
}

export function closeSocket(): void {
  if (!current) return;
  current.removeAllListeners();
  current.io.off();
  current.disconnect();
  current = null;
}
