// Path data of the line marks (d3-shape), coordinates rounded to 2 decimals.
import { area, curveStepAfter, line } from 'd3-shape';

type Scale = (v: number) => number;

/** A polyline (or a step curve, `step`) through `points` in data units. */
export function linePath(points: ReadonlyArray<readonly [number, number]>, x: Scale, y: Scale, step = false): string {
  const gen = line<readonly [number, number]>()
    .x(([v]) => x(v))
    .y(([, v]) => y(v))
    .digits(2);
  if (step) gen.curve(curveStepAfter);
  return gen(points) ?? '';
}

/**
 * A cumulative distribution as a step curve: from fraction 0 at the first x, then up at
 * each point (empty for no points).
 */
export function cdfPath(points: ReadonlyArray<readonly [number, number]>, x: Scale, y: Scale): string {
  const first = points[0];
  return first ? linePath([[first[0], 0], ...points], x, y, true) : '';
}

/** The area between `[x, low, high]` triples. */
export function bandPath(band: ReadonlyArray<readonly [number, number, number]>, x: Scale, y: Scale): string {
  const gen = area<readonly [number, number, number]>()
    .x(([v]) => x(v))
    .y0(([, lo]) => y(lo))
    .y1(([, , hi]) => y(hi))
    .digits(2);
  return gen(band) ?? '';
}
