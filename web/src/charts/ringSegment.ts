// The segment of one table entry drawn on a ring (D3 arc): entry j spans the angles
// [j, j + 1] x 2π/N clockwise from 12 o'clock; `grow` widens it (a selected entry).
import { arc } from 'd3-shape';

/** One entry's angles and how much it grows outwards and inwards, in px. */
export interface RingSegment {
  start: number;
  end: number;
  grow: number;
}

/** A path generator for ring segments between radii `inner` and `outer`. */
export function ringSegment(inner: number, outer: number, padAngle: number, cornerRadius = 0) {
  return arc<RingSegment>()
    .innerRadius((d) => inner - d.grow)
    .outerRadius((d) => outer + d.grow)
    .startAngle((d) => d.start)
    .endAngle((d) => d.end)
    .padAngle(padAngle)
    .cornerRadius(cornerRadius);
}
