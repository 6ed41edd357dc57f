// Axes and grid lines: a bottom x axis and a left y axis drawn from ticks already placed
// (pixel positions and labels), so any scale (linear, log, band) can feed them.
import type { ReactNode } from 'react';
import { AXIS, GRID, r2 } from './style';

/** One tick of an axis. */
export interface AxisTick {
  /** Position along the axis in px. */
  at: number;
  /** Label; null for an unlabelled (minor) tick. */
  label: string | null;
  /** A shorter tick line (log axes' minor ticks); default: when it has no label. */
  minor?: boolean;
  /** Drawn instead of the tick line (e.g. a colour swatch under a bar group). */
  mark?: ReactNode;
}

interface AxisProps {
  ticks: readonly AxisTick[];
  /** Length of the axis line in px (plot width or height). */
  length: number;
  /** Axis title (none when absent). */
  title?: string;
  /** Distance of the title from the axis line. */
  titleOffset?: number;
  /** Font size of the title (ticks use 11). */
  titleSize?: number;
  /** Tick line length (labels sit 3 px beyond a y tick, 12 px beyond an x tick). */
  tickSize?: number;
  /** Class of the axis group; ticks get `tick` (and `minor`) when given. */
  className?: string;
  /** Class of the title text. */
  titleClassName?: string;
}

/** The x axis along the bottom of a plot of height `y`. */
export function XAxis({ ticks, length, title, titleOffset, titleSize = 11, tickSize = 5, className, titleClassName, y }: AxisProps & { y: number }) {
  return (
    <g className={className} transform={`translate(0,${r2(y)})`} fontSize={11} textAnchor="middle">
      <line x1={0} x2={r2(length)} stroke={AXIS} />
      {ticks.map((t, i) => {
        const minor = t.minor ?? t.label === null;
        return (
          <g key={i} className={className ? (minor ? 'tick minor' : 'tick') : undefined} transform={`translate(${r2(t.at)},0)`}>
            {t.mark ?? <line y2={minor ? Math.round(tickSize / 2) : tickSize} stroke={AXIS} />}
            {t.label !== null && <text y={t.mark ? 32 : tickSize + 12}>{t.label}</text>}
          </g>
        );
      })}
      {title ? (
        <text className={titleClassName} x={r2(length / 2)} y={titleOffset} fontSize={titleSize}>
          {title}
        </text>
      ) : null}
    </g>
  );
}

/** The y axis along the left of a plot of height `length`. */
export function YAxis({ ticks, length, title, titleOffset, titleSize = 11, tickSize = 5, className, titleClassName }: AxisProps) {
  return (
    <g className={className} fontSize={11} textAnchor="end">
      <line y1={0} y2={r2(length)} stroke={AXIS} />
      {ticks.map((t, i) => (
        <g key={i} className={className ? 'tick' : undefined} transform={`translate(0,${r2(t.at)})`}>
          <line x2={-tickSize} stroke={AXIS} />
          {t.label !== null && (
            <text x={-tickSize - 3} dy="0.32em">
              {t.label}
            </text>
          )}
        </g>
      ))}
      {title ? (
        <text className={titleClassName} transform={`translate(${-(titleOffset ?? 0)},${r2(length / 2)}) rotate(-90)`} textAnchor="middle" fontSize={titleSize}>
          {title}
        </text>
      ) : null}
    </g>
  );
}

/** Horizontal grid lines across a plot of width `width`, at the y positions `at`. */
export function GridLines({ at, width, className }: { at: readonly number[]; width: number; className?: string }) {
  return (
    <g className={className} stroke={GRID} strokeWidth={1}>
      {at.map((y, i) => (
        <line key={i} x1={0} x2={r2(width)} y1={r2(y)} y2={r2(y)} />
      ))}
    </g>
  );
}
