// The address follows a view's hash after the debounce, and a view left before the
// debounce has passed is still read as it was last edited (latestHash).
import { renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HASH_DEBOUNCE_MS, LatestHashContext, latestHash, useHashSync, type LatestHashHandle } from './useHashSync';

/** The page's handle, and a wrapper giving it to the hook as the page does. */
function page() {
  const handle: LatestHashHandle = { current: null };
  const wrapper = ({ children }: { children: ReactNode }) => createElement(LatestHashContext.Provider, { value: handle }, children);
  return { handle, wrapper };
}

describe('useHashSync', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    window.history.replaceState(null, '', '#start');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells the latest hash before the debounce writes it, and the address after', () => {
    const { handle, wrapper } = page();
    const { rerender, unmount } = renderHook(({ hash }) => useHashSync(hash, () => {}), { initialProps: { hash: 'a' }, wrapper });
    rerender({ hash: 'b' });
    expect(window.location.hash).toBe('#start');
    expect(latestHash(handle)).toBe('#b');
    vi.advanceTimersByTime(HASH_DEBOUNCE_MS);
    expect(window.location.hash).toBe('#b');
    expect(latestHash(handle)).toBe('#b');
    // A view left before its debounce has passed writes nothing more, and is forgotten.
    rerender({ hash: 'c' });
    unmount();
    vi.advanceTimersByTime(HASH_DEBOUNCE_MS);
    expect(window.location.hash).toBe('#b');
    expect(latestHash(handle)).toBe('#b');
  });

  it('does not overwrite an address navigated to while its debounce waits', () => {
    const seen: string[] = [];
    renderHook(({ hash }) => useHashSync(hash, (h) => seen.push(h)), { initialProps: { hash: 'default' } });
    // A new link is opened before the view's write: the address changes first, its
    // `hashchange` comes later (a task of its own).
    window.history.replaceState(null, '', '#opened');
    vi.advanceTimersByTime(HASH_DEBOUNCE_MS);
    expect(window.location.hash).toBe('#opened');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(seen).toEqual(['#opened']);
  });
});
