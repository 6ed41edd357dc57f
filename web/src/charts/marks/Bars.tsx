// Bar marks: grouped bars (one group per category, one bar per series), the group's colour
// and the series' fill pattern (solid, hatched, dotted, ...), and the pattern definitions.
import { colorFor } from '../palette';
import { r2 } from './style';

export type PatternKind = 'solid' | 'diagonal' | 'dots' | 'horizontal' | 'cross' | 'vertical';

/** Pattern of series `k`: solid, then hatches and dots drawn in the group colour. */
export function patternKind(k: number): PatternKind {
  const kinds = ['solid', 'diagonal', 'dots', 'horizontal', 'cross', 'vertical'] as const;
  return kinds[((k % kinds.length) + kinds.length) % kinds.length] ?? 'solid';
}

/** A `<pattern>` of kind `kind` in `color` on white. */
export function PatternDef({ id, kind, color }: { id: string; kind: PatternKind; color: string }) {
  const size = 6;
  return (
    <pattern id={id} patternUnits="userSpaceOnUse" width={size} height={size}>
      <rect width={size} height={size} fill="#ffffff" />
      {kind === 'diagonal' && <path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke={color} strokeWidth={1.6} />}
      {kind === 'dots' && <circle cx={3} cy={3} r={1.5} fill={color} />}
      {kind === 'horizontal' && <path d="M0,3 h6" stroke={color} strokeWidth={1.6} />}
      {kind === 'vertical' && <path d="M3,0 v6" stroke={color} strokeWidth={1.6} />}
      {kind === 'cross' && <path d="M0,3 h6 M3,0 v6" stroke={color} strokeWidth={1.2} />}
    </pattern>
  );
}

/** Fill of a bar of series `k` in the colour of palette index `colorIndex`. */
export function barFill(k: number, colorIndex: number, prefix: string): string {
  return patternKind(k) === 'solid' ? colorFor(colorIndex) : `url(#${prefix}-${colorIndex}-${k})`;
}

/** The pattern definitions `barFill` refers to, for these colours and series count. */
export function BarPatterns({ colorIndices, series, prefix }: { colorIndices: readonly number[]; series: number; prefix: string }) {
  return (
    <>
      {colorIndices.flatMap((c) =>
        Array.from({ length: series }, (_, k) =>
          patternKind(k) === 'solid' ? null : <PatternDef key={`${c}-${k}`} id={`${prefix}-${c}-${k}`} kind={patternKind(k)} color={colorFor(c)} />,
        ),
      )}
    </>
  );
}

/** One group of bars, placed. */
export interface PlacedGroup {
  name: string;
  colorIndex: number;
  /** Left edge of the group in px. */
  x: number;
  /** One bar per series: left edge relative to the group, value (null = no bar). */
  bars: readonly { x: number; value: number | null }[];
}

interface BarsProps {
  groups: readonly PlacedGroup[];
  /** Width of one bar. */
  barWidth: number;
  /** Value to y pixel. */
  y: (v: number) => number;
  /** Height of the plot (the bars' base line). */
  base: number;
  seriesLabels: readonly string[];
  format: (v: number) => string;
  /** Prefix of the pattern ids (`BarPatterns`). */
  prefix: string;
}

/** Grouped bars with a tooltip each. */
export function GroupedBars({ groups, barWidth, y, base, seriesLabels, format, prefix }: BarsProps) {
  return (
    <g className="bars">
      {groups.map((g, i) => (
        <g key={i} className="bar-group" transform={`translate(${r2(g.x)},0)`}>
          {g.bars.map(({ x, value: v }, k) =>
            v === null || !Number.isFinite(v) ? null : (
              <rect key={k} className="tp-bar" data-group={i} data-series={k}
                x={r2(x)} y={r2(y(Math.max(0, v)))} width={r2(barWidth)}
                height={r2(Math.max(0, base - y(Math.max(0, v))))}
                fill={barFill(k, g.colorIndex, prefix)}
                stroke={colorFor(g.colorIndex)} strokeWidth={1}>
                <title>{`${g.name}, ${seriesLabels[k] ?? ''}: ${format(v)}`}</title>
              </rect>
            ),
          )}
        </g>
      ))}
    </g>
  );
}
