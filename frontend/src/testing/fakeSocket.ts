import { setSocketFactory, type RealtimeSocket, type SOCKET_OPTIONS, type SocketAuth, type SocketAuthProvider } from '@/api/socket';
import type { RealtimeEventName, RealtimePayload } from '@/api/types';

type Listener = (...args: unknown[]) => void;

class Emitter {
  private listeners = new Map<string, Set<Listener>>();
  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }
  off(event?: string, listener?: Listener) {
    if (!event) this.listeners.clear();
    else if (!listener) this.listeners.delete(event);
    else this.listeners.get(event)?.delete(listener);
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
  count(event: string) {
    return this.listeners.get(event)?.size ?? 0;
  }
}

/** A stand-in for a socket.io client: tests play the server with `serverEmit`. */
export class FakeSocket implements RealtimeSocket {
  connected = false;
  connectCalls = 0;
  disconnectCalls = 0;
  emitted: Array<{ event: string; args: unknown[] }> = [];
  private socketEvents = new Emitter();
  private managerEvents = new Emitter();
  readonly io = {
    on: (event: string, listener: (...args: never[]) => void) => this.managerEvents.on(event, listener as Listener),
    off: (event?: string, listener?: (...args: never[]) => void) => this.managerEvents.off(event, listener as Listener),
  };

  constructor(
    readonly url: string,
    readonly options: typeof SOCKET_OPTIONS & { auth: SocketAuthProvider },
  ) {}

  /** What the client would send as `auth` on a connection attempt made now (socket.io asks each time). */
  authPayload(): Promise<SocketAuth> {
    return new Promise((resolve) => this.options.auth(resolve));
  }

  on(event: string, listener: (...args: never[]) => void) {
    return this.socketEvents.on(event, listener as Listener);
  }
  off(event?: string, listener?: (...args: never[]) => void) {
    return this.socketEvents.off(event, listener as Listener);
  }
  removeAllListeners(event?: string) {
    return this.socketEvents.off(event);
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push({ event, args });
    return this;
  }
  connect() {
    this.connectCalls += 1;
    return this;
  }
  disconnect() {
    this.disconnectCalls += 1;
    this.connected = false;
    return this;
  }

  /** The server sends an event (or the client library reports connect/disconnect). */
  serverEmit(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    this.socketEvents.fire(event, ...args);
  }
  /** The server sends one of the contract's events (RealtimeEvent), its payload type-checked. */
  serverEvent<Name extends RealtimeEventName>(type: Name, data: RealtimePayload<Name>) {
    this.serverEmit(type, data);
  }
  /** The manager reports an event such as 'reconnect'. */
  managerEmit(event: string, ...args: unknown[]) {
    this.managerEvents.fire(event, ...args);
  }
  listenerCount(event: string) {
    return this.socketEvents.count(event);
  }
}

/** Makes every socket the app opens a FakeSocket and records them. */
export function installFakeSockets() {
  const sockets: FakeSocket[] = [];
  setSocketFactory((url, options) => {
    const socket = new FakeSocket(url, options);
    sockets.push(socket);
    return socket;
  });
  return {
    sockets,
    latest(): FakeSocket {
      const socket = sockets.at(-1);
      if (!socket) throw new Error('no socket was opened');
      return socket;
    },
  };
}
