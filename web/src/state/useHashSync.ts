// Keeps the address bar's hash equal to `hash` (debounced, without adding history
// entries), and reports hashes typed or pasted by the user (`hashchange`).
import { useEffect, useRef } from 'react';

/** Delay before the address is updated after an edit, in ms. */
export const HASH_DEBOUNCE_MS = 200;

export function useHashSync(hash: string | null, onExternalChange: (hash: string) => void): void {
  const written = useRef<string | null>(null);
  const onChange = useRef(onExternalChange);
  useEffect(() => {
    onChange.current = onExternalChange;
  }, [onExternalChange]);

  useEffect(() => {
    if (hash === null) return;
    const timer = window.setTimeout(() => {
      const target = `#${hash}`;
      written.current = target;
      if (window.location.hash !== target) {
        window.history.replaceState(window.history.state, '', target);
      }
    }, HASH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [hash]);

  useEffect(() => {
    const listener = () => {
      if (window.location.hash !== written.current) onChange.current(window.location.hash);
    };
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
}
