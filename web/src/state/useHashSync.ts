// Keeps the address bar's hash equal to `hash` (debounced, without adding history
// entries), and reports hashes typed or pasted by the user (`hashchange`).
import { useEffect, useRef } from 'react';

/** Delay before the address is updated after an edit, in ms. */
export const HASH_DEBOUNCE_MS = 200;

/** The hash the open view asked for last, while its write waits for the debounce. */
let pending: string | null = null;

/**
 * The address's hash as the open view means it: the one still waiting for the debounce
 * if there is one, else the address bar's. Read this, not `window.location.hash`, when
 * leaving a view (an edit made just before must not be lost).
 */
export function latestHash(): string {
  return pending ?? window.location.hash;
}

export function useHashSync(hash: string | null, onExternalChange: (hash: string) => void): void {
  const written = useRef<string | null>(null);
  const onChange = useRef(onExternalChange);
  useEffect(() => {
    onChange.current = onExternalChange;
  }, [onExternalChange]);

  useEffect(() => {
    if (hash === null) return;
    const target = `#${hash}`;
    pending = target;
    // The address as this write found it: if it has changed when the debounce ends, the
    // user (or a test) navigated meanwhile and its `hashchange` is on its way; the view's
    // older hash must not overwrite it.
    const before = window.location.hash;
    const timer = window.setTimeout(() => {
      pending = null;
      if (window.location.hash !== before) return;
      written.current = target;
      if (window.location.hash !== target) {
        window.history.replaceState(window.history.state, '', target);
      }
    }, HASH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [hash]);

  // A view that is left writes nothing more.
  useEffect(
    () => () => {
      pending = null;
    },
    [],
  );

  useEffect(() => {
    const listener = () => {
      pending = null;
      if (window.location.hash !== written.current) onChange.current(window.location.hash);
    };
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
}
