/**
 * The Web Locks API of a browser whose other tabs take the lock too: one holder at a time, the
 * others wait in turn. `holdAsOtherTab` plays another tab holding it until released.
 */
export class FakeLocks {
  requested: string[] = [];
  held: string | null = null;
  private waiting: Array<() => void> = [];

  async request<T>(name: string, callback: (lock: { name: string; mode: 'exclusive' }) => T | Promise<T>): Promise<T> {
    this.requested.push(name);
    while (this.held !== null) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held = name;
    try {
      return await callback({ name, mode: 'exclusive' });
    } finally {
      this.release();
    }
  }

  holdAsOtherTab(): () => void {
    this.held = 'another tab';
    return () => this.release();
  }

  private release() {
    this.held = null;
    this.waiting.shift()?.();
  }
}

export function installFakeLocks(): FakeLocks {
  const locks = new FakeLocks();
  Object.defineProperty(window.navigator, 'locks', { value: locks, configurable: true });
  return locks;
}

/** Takes the fake away again (setup.ts, after each test). */
export function removeFakeLocks(): void {
  Reflect.deleteProperty(window.navigator, 'locks');
}
