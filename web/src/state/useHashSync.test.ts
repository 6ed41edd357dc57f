// The address follows a view's hash after the debounce, and a view left before the
// debounce has passed is still read as it was last edited (latestHash).
import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HASH_DEBOUNCE_MS, latestHash, useHashSync } from './useHashSync';

describe('useHashSync', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    window.history.replaceState(null, '', '#start');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells the latest hash before the debounce writes it, and the address after', () => {
    const { rerender, unmount } = renderHook(({ hash }) => useHashSync(hash, () => {}), { initialProps: { hash: 'a' } });
    rerender({ hash: 'b' });
    expect(window.location.hash).toBe('#start');
    expect(latestHash()).toBe('#b');
    vi.advanceTimersByTime(HASH_DEBOUNCE_MS);
    expect(window.location.hash).toBe('#b');
    expect(latestHash()).toBe('#b');
    // A view left before its debounce has passed writes nothing more, and is forgotten.
    rerender({ hash: 'c' });
    unmount();
    vi.advanceTimersByTime(HASH_DEBOUNCE_MS);
    expect(window.location.hash).toBe('#b');
    expect(latestHash()).toBe('#b');
  });
});
