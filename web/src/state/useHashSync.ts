// Keeps the address bar's hash equal to `hash` (debounced, without adding history
// entries), and reports hashes typed or pasted by the user (`hashchange`).
import { createContext, useContext, useEffect, useRef } from 'react';

/** Delay before the address is updated after an edit, in ms. */
export const HASH_DEBOUNCE_MS = 200;

/**
 * The page's handle on the open view's address: the view's {@link useHashSync} puts its
 * reader there while it is open (a ref the page owns, given by {@link LatestHashContext}).
 */
export interface LatestHashHandle {
  current: (() => string) | null;
}

/** Where {@link useHashSync} registers the open view's reader (none outside the page). */
export const LatestHashContext = createContext<LatestHashHandle | null>(null);

/**
 * The address's hash as the open view means it: the one still waiting for the debounce
 * if there is one, else the address bar's. Read this, not `window.location.hash`, when
 * leaving a view (an edit made just before must not be lost).
 */
export function latestHash(handle: LatestHashHandle): string {
  return handle.current?.() ?? window.location.hash;
}

export function useHashSync(hash: string | null, onExternalChange: (hash: string) => void): void {
  const written = useRef<string | null>(null);
  /** The hash this view asked for last, while its write waits for the debounce. */
  const pending = useRef<string | null>(null);
  const onChange = useRef(onExternalChange);
  const latestRef = useContext(LatestHashContext);
  useEffect(() => {
    onChange.current = onExternalChange;
  }, [onExternalChange]);

  // While open, the page reads this view's latest hash through the handle; a view that
  // is left is forgotten (and writes nothing more: its timer is cleared).
  useEffect(() => {
    if (latestRef === null) return;
    const read = () => pending.current ?? window.location.hash;
    latestRef.current = read;
    return () => {
      if (latestRef.current === read) latestRef.current = null;
    };
  }, [latestRef]);

  useEffect(() => {
    if (hash === null) return;
    const target = `#${hash}`;
    pending.current = target;
    // The address as this write found it: if it has changed when the debounce ends, the
    // user (or a test) navigated meanwhile and its `hashchange` is on its way; the view's
    // older hash must not overwrite it.
    const before = window.location.hash;
    const timer = window.setTimeout(() => {
      pending.current = null;
      if (window.location.hash !== before) return;
      written.current = target;
      if (window.location.hash !== target) {
        window.history.replaceState(window.history.state, '', target);
      }
    }, HASH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [hash]);

  useEffect(() => {
    const listener = () => {
      pending.current = null;
      if (window.location.hash !== written.current) onChange.current(window.location.hash);
    };
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
}
