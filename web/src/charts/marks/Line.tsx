// Line marks: a stroked path (a series' line or step curve), point markers, and a
// confidence band (shaded area plus a whisker at each point).
import { r2 } from './style';

/** A series' line, step curve or CDF (path data from `paths.ts`). */
export function LineMark({ d, color, dash, className, series }: { d: string; color: string; dash?: string; className?: string; series?: string }) {
  return (
    <path className={className} data-series={series} d={d} fill="none" stroke={color} strokeWidth={2} strokeLinejoin="round" strokeDasharray={dash} />
  );
}

/** Marker of series `i`: circle, square, triangle, diamond (cycles). */
export function Marker({ i, x, y, color }: { i: number; x: number; y: number; color: string }) {
  switch (((i % 4) + 4) % 4) {
    case 0:
      return <circle cx={x} cy={y} r={3.5} fill={color} />;
    case 1:
      return <rect x={r2(x - 3.2)} y={r2(y - 3.2)} width={6.4} height={6.4} fill={color} />;
    case 2:
      return <path d={`M${r2(x)},${r2(y - 4.2)} L${r2(x + 4)},${r2(y + 3)} L${r2(x - 4)},${r2(y + 3)} Z`} fill={color} />;
    default:
      return <path d={`M${r2(x)},${r2(y - 4.5)} L${r2(x + 4)},${r2(y)} L${r2(x)},${r2(y + 4.5)} L${r2(x - 4)},${r2(y)} Z`} fill={color} />;
  }
}

/** A confidence band: the shaded area `d` and a whisker per point (`[x, yLow, yHigh]` in px). */
export function BandMark({ d, whiskers, color, series }: { d: string; whiskers: ReadonlyArray<readonly [number, number, number]>; color: string; series?: string }) {
  return (
    <>
      <path className="ci-band" data-series={series} d={d} fill={color} fillOpacity={0.18} stroke="none" />
      <g className="ci-whiskers" stroke={color} strokeWidth={1.2}>
        {whiskers.map(([x, lo, hi], j) => (
          <line key={j} x1={r2(x)} x2={r2(x)} y1={r2(lo)} y2={r2(hi)} />
        ))}
      </g>
    </>
  );
}
