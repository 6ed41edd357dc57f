// Legend mark: items in a grid (row-major, `columns` per row, or one column), each a swatch
// (a line, a line with a marker, a pattern box) and its text; an item may carry a second
// line (e.g. "(no packets)"), which makes its row taller.
import type { ReactNode } from 'react';
import { PatternDef, patternKind } from './Bars';
import { Marker } from './Line';
import { AXIS, r2 } from './style';

/** One legend item. */
export interface LegendItem {
  key: string;
  /** Text as shown (possibly cut). */
  text: string;
  /** The full text, as a tooltip, when `text` was cut. */
  full?: string;
  /** Swatch (see `lineSwatch`, `patternSwatch`), drawn at the item's origin. */
  swatch: ReactNode;
  /** A second, smaller line under the text. */
  note?: string;
  /** `data-series` of the item. */
  series?: string;
}

interface LegendProps {
  items: readonly LegendItem[];
  /** Where the legend's first row sits. */
  x: number;
  y: number;
  columns?: number;
  columnWidth?: number;
  /** Height of a row (a row with a note is 14 px taller). */
  rowHeight?: number;
  /** x of the text in an item (after the swatch). */
  textX?: number;
  className?: string;
  itemClassName?: string;
}

/** Row-major positions of the items: x by column, y by rows above (taller with notes). */
export function legendPositions(items: readonly { note?: string }[], columns: number, columnWidth: number, rowHeight: number): [number, number][] {
  const out: [number, number][] = [];
  let rowY = 0;
  for (let start = 0; start < items.length; start += columns) {
    const row = items.slice(start, start + columns);
    row.forEach((_, j) => out.push([j * columnWidth, rowY]));
    rowY += rowHeight + (row.some((it) => it.note) ? 14 : 0);
  }
  return out;
}

export function Legend({ items, x, y, columns = 1, columnWidth = 0, rowHeight = 20, textX = 30, className, itemClassName }: LegendProps) {
  const at = legendPositions(items, Math.max(1, columns), columnWidth, rowHeight);
  return (
    <g className={className} transform={`translate(${r2(x)},${r2(y)})`}>
      {items.map((it, k) => (
        <g key={it.key} className={itemClassName} data-series={it.series} transform={`translate(${at[k]?.[0] ?? 0},${at[k]?.[1] ?? 0})`}>
          {it.full !== undefined && it.full !== it.text && <title>{it.full}</title>}
          {it.swatch}
          <text x={textX} dy="0.32em">{it.text}</text>
          {it.note && (
            <text x={textX} y={14} dy="0.32em" fontSize={11} fill={AXIS}>
              {it.note}
            </text>
          )}
        </g>
      ))}
    </g>
  );
}

/** A line swatch (24 px), dashed when `dash`, with the series' marker when `marker` is its index. */
export function lineSwatch(color: string, dash?: string, marker?: number): ReactNode {
  return (
    <>
      <line x1={0} x2={24} stroke={color} strokeWidth={2} strokeDasharray={dash} />
      {marker === undefined ? null : <Marker i={marker} x={12} y={0} color={color} />}
    </>
  );
}

/** A pattern box swatch (22 × 12 px, centred on the text line) for bar series `k`. */
export function patternSwatch(k: number, id: string): ReactNode {
  const kind = patternKind(k);
  return (
    <>
      {kind === 'solid' ? null : (
        <defs>
          <PatternDef id={id} kind={kind} color={AXIS} />
        </defs>
      )}
      <rect y={-6} width={22} height={12} fill={kind === 'solid' ? AXIS : `url(#${id})`} stroke={AXIS} />
    </>
  );
}

/** `text` cut to `maxChars` characters with an ellipsis. */
export function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(1, maxChars - 1))}…`;
}
