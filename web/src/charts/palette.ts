/**
 * Colour-blind-safe categorical palette (Okabe & Ito, 2008) for lines on a white
 * background. The order puts the most distinct hues first (blue, orange, green,
 * purple), so the few classes of a typical scenario never get two warm yellows; the
 * yellow (#F0E442, 1.3:1 on white) is darkened to #A08A00 (3.4:1) so thin lines stay
 * visible; black comes last so the first series do not look like axes.
 */
export const PALETTE: readonly string[] = [
  '#0072B2', // blue
  '#E69F00', // orange
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#D55E00', // vermillion
  '#56B4E9', // sky blue
  '#A08A00', // yellow, darkened
  '#000000', // black
];

/** Colour for the series at `index` (cycles through {@link PALETTE}). */
export function colorFor(index: number): string {
  const n = PALETTE.length;
  const i = ((Math.trunc(index) % n) + n) % n;
  return PALETTE[i] ?? '#000000';
}
