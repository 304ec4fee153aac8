import { afterEach, describe, expect, it, vi } from 'vitest';
import { stylesheetSingleton } from './cspStyleSingleton';

/** A constructed stylesheet stand-in for jsdom, which has no `new CSSStyleSheet()`. */
class FakeConstructedSheet {
  css = '';
  replaceSync(css: string) {
    this.css = css;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document, 'adoptedStyleSheets');
  document.head.querySelectorAll('style').forEach((tag) => tag.remove());
});

describe('the CSP-safe style singleton (for Radix dialogs under style-src self)', () => {
  it('adopts a constructed stylesheet instead of adding a <style> tag, once for all users', () => {
    vi.stubGlobal('CSSStyleSheet', FakeConstructedSheet);
    Object.defineProperty(document, 'adoptedStyleSheets', { value: [], writable: true, configurable: true });
    const sheet = stylesheetSingleton();
    sheet.add('body[data-scroll-locked] { overflow: hidden; }');
    sheet.add('ignored: the first add wins');
    const adopted = document.adoptedStyleSheets as unknown as FakeConstructedSheet[];
    expect(adopted).toHaveLength(1);
    expect(adopted[0].css).toBe('body[data-scroll-locked] { overflow: hidden; }');
    expect(document.head.querySelector('style')).toBeNull();
    sheet.remove();
    expect(document.adoptedStyleSheets).toHaveLength(1);
    sheet.remove();
    expect(document.adoptedStyleSheets).toHaveLength(0);
  });

  it('falls back to a <style> tag where stylesheets cannot be constructed', () => {
    Reflect.deleteProperty(document, 'adoptedStyleSheets');
    const sheet = stylesheetSingleton();
    sheet.add('.x { color: red; }');
    expect(document.head.querySelectorAll('style')).toHaveLength(1);
    sheet.remove();
    expect(document.head.querySelector('style')).toBeNull();
  });
});
