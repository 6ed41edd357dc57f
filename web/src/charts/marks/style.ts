// The charts' shared look: font, colours, and coordinates rounded to 2 decimals (so the
// SVG text is short, stable and diffable).
export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
/** Text. */
export const TEXT = '#222222';
/** Axis lines, ticks, secondary text. */
export const AXIS = '#555555';
/** Grid lines. */
export const GRID = '#e0e0e0';

/** `v` rounded to 2 decimals (`+ 0` turns −0 into 0). */
export const r2 = (v: number): number => Math.round(v * 100) / 100 + 0;
