// The width of a chart's container, followed with a ResizeObserver (720 px without one).
import { useLayoutEffect, useRef, useState } from 'react';

/** A ref for the container and its current width (followed only while `enabled`). */
export function useContainerWidth(enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  // A layout effect, measured once at once: the first paint already has the container's
  // width, so a chart never shows (or makes a narrow page scroll) at the 720 px default.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!enabled || !el || typeof ResizeObserver === 'undefined') return;
    const now = Math.floor(el.getBoundingClientRect().width);
    if (now > 0) setWidth(now);
    const ro = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [enabled]);
  return [ref, width] as const;
}
