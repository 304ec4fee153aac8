import { useEffect } from 'react';

/*
 * A stand-in for the `react-style-singleton` package (same exports, same behaviour), which the
 * production build uses instead of it (webpack `resolve.alias`). Radix dialogs lock the page's
 * scrolling through react-remove-scroll, which adds its CSS with that package as a <style> tag; our
 * Content-Security-Policy (`style-src 'self'`, no 'unsafe-inline') refuses such tags. A
 * constructed stylesheet (`new CSSStyleSheet()` + `document.adoptedStyleSheets`) is CSSOM, which
 * the policy allows; browsers without it get the <style> tag, as before.
 */

export interface StyleSheetHandle {
  add(css: string): void;
  remove(): void;
}

function canAdoptStyleSheets(): boolean {
  return (
    typeof document !== 'undefined' &&
    'adoptedStyleSheets' in document &&
    typeof CSSStyleSheet === 'function' &&
    typeof CSSStyleSheet.prototype.replaceSync === 'function'
  );
}

/** One stylesheet shared by every user: added by the first `add`, removed by the last `remove`. */
export function stylesheetSingleton(): StyleSheetHandle {
  let counter = 0;
  let adopted: CSSStyleSheet | null = null;
  let tag: HTMLStyleElement | null = null;
  return {
    add(css) {
      if (counter === 0) {
        if (canAdoptStyleSheets()) {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(css);
          document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
          adopted = sheet;
        } else if (typeof document !== 'undefined') {
          tag = document.createElement('style');
          tag.appendChild(document.createTextNode(css));
          document.head.appendChild(tag);
        }
      }
      counter += 1;
    },
    remove() {
      counter -= 1;
      if (counter > 0) return;
      if (adopted) {
        const sheet = adopted;
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((candidate) => candidate !== sheet);
        adopted = null;
      }
      tag?.remove();
      tag = null;
    },
  };
}

/** A hook that holds the shared stylesheet while the component using it is mounted. */
export function styleHookSingleton() {
  const sheet = stylesheetSingleton();
  return function useStyle(styles: string, isDynamic?: boolean) {
    useEffect(() => {
      sheet.add(styles);
      return () => sheet.remove();
      // As the package does: styles given at first mount stay, unless they are marked dynamic.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [styles && isDynamic]);
  };
}

/** A component that holds the shared stylesheet while mounted (what react-remove-scroll uses). */
export function styleSingleton() {
  const useStyle = styleHookSingleton();
  return function Sheet({ styles, dynamic }: { styles: string; dynamic?: boolean }) {
    useStyle(styles, dynamic);
    return null;
  };
}
