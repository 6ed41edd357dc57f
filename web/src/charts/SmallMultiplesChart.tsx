// Small multiples of line charts with markers (D3 scales, React-rendered SVG): one panel
// per scheduler, the same axes in every panel, one line per class (palette colour and a
// marker shape per class), a shared legend. Panels sit side by side when the width
// allows, else one under the other.
import type { Ref } from 'react';
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { colorFor } from './palette';
import { formatNumber } from './units';
import { useContainerWidth } from './useContainerWidth';

/** One line of a panel. */
export interface MultiSeries {
  name: string;
  colorIndex: number;
  /** `[x, y]` points, x increasing. */
  points: ReadonlyArray<readonly [number, number]>;
}

/** One panel. */
export interface MultiPanel {
  title: string;
  series: readonly MultiSeries[];
}

export interface SmallMultiplesChartProps {
  panels: readonly MultiPanel[];
  xLabel: string;
  yLabel: string;
  title: string;
  /** Fixed x domain (default: from the data, from 0). */
  xDomain?: readonly [number, number];
  width?: number;
  /** Height of one panel's plot area + axes (default 280). */
  panelHeight?: number;
  svgRef?: Ref<SVGSVGElement>;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const TEXT = '#222222';
const AXIS = '#555555';
const GRID = '#e0e0e0';
const PAD = { top: 26, right: 14, bottom: 44, left: 56 };
const r2 = (v: number): number => Math.round(v * 100) / 100 + 0;

/** Marker of class `i`: circle, square, triangle, diamond (cycles). */
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

/** Columns of the grid of panels for a width. */
export function panelColumns(count: number, width: number): number {
  if (count <= 1) return 1;
  return Math.max(1, Math.min(count, Math.floor(width / 260)));
}

export function SmallMultiplesChart({
  panels,
  xLabel,
  yLabel,
  title,
  xDomain,
  width,
  panelHeight = 280,
  svgRef,
}: SmallMultiplesChartProps) {
  const [containerRef, measured] = useContainerWidth(width === undefined);
  const w = Math.max(300, Math.round(width ?? measured));
  const cols = panelColumns(panels.length, w);
  const rows = Math.ceil(panels.length / cols);
  const cellW = w / cols;
  const plotW = Math.max(40, cellW - PAD.left - PAD.right);
  const plotH = Math.max(40, panelHeight - PAD.top - PAD.bottom);
  const names: { name: string; colorIndex: number }[] = [];
  for (const p of panels) for (const s of p.series) if (!names.some((n) => n.name === s.name)) names.push(s);
  const perRow = Math.max(1, Math.floor(w / 170));
  const legendH = 22 * Math.ceil(names.length / perRow) + 8;
  const height = rows * panelHeight + legendH;
  const xs = panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([x]) => x))).filter(Number.isFinite);
  const ys = panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([, y]) => y))).filter(Number.isFinite);
  const x = scaleLinear()
    .domain(xDomain ? [xDomain[0], xDomain[1]] : [0, Math.max(1e-9, ...xs)])
    .range([0, plotW])
    .nice(6);
  const y = scaleLinear()
    .domain([0, Math.max(1e-9, ...ys)])
    .range([plotH, 0])
    .nice(5);
  const xTicks = x.ticks(Math.max(2, Math.min(8, Math.floor(plotW / 50))));
  const yTicks = y.ticks(5);
  const gen = line<readonly [number, number]>()
    .x(([v]) => x(v))
    .y(([, v]) => y(v))
    .digits(2);
  const summary = `${panels.length} panels (${panels.map((p) => p.title).join(', ')}), same axes. X: ${xLabel}. Y: ${yLabel}. Lines: ${names.map((n) => n.name).join(', ')}.`;
  return (
    <div ref={containerRef} className="multiples-chart" style={{ width: width === undefined ? '100%' : w }}>
      <svg ref={svgRef} role="img" aria-label={`${title}. ${summary}`} width={w} height={height}
        viewBox={`0 0 ${w} ${height}`} fontFamily={FONT} fontSize={12} fill={TEXT}>
        <title>{title}</title>
        <desc>{summary}</desc>
        {panels.map((p, k) => {
          const ox = (k % cols) * cellW + PAD.left;
          const oy = Math.floor(k / cols) * panelHeight + PAD.top;
          return (
            <g key={k} className="panel-plot" data-panel={k} transform={`translate(${r2(ox)},${r2(oy)})`}>
              <text className="panel-title" x={r2(plotW / 2)} y={-10} textAnchor="middle" fontWeight="bold">
                {p.title}
              </text>
              <g stroke={GRID}>
                {yTicks.slice(1).map((t) => (
                  <line key={t} x1={0} x2={plotW} y1={r2(y(t))} y2={r2(y(t))} />
                ))}
              </g>
              <g fontSize={11} textAnchor="end">
                <line y1={0} y2={plotH} stroke={AXIS} />
                {yTicks.map((t) => (
                  <g key={t} transform={`translate(0,${r2(y(t))})`}>
                    <line x2={-5} stroke={AXIS} />
                    <text x={-8} dy="0.32em">{formatNumber(t)}</text>
                  </g>
                ))}
                <text transform={`translate(-42,${r2(plotH / 2)}) rotate(-90)`} textAnchor="middle" fontSize={11}>
                  {yLabel}
                </text>
              </g>
              <g transform={`translate(0,${plotH})`} fontSize={11} textAnchor="middle">
                <line x1={0} x2={plotW} stroke={AXIS} />
                {xTicks.map((t) => (
                  <g key={t} transform={`translate(${r2(x(t))},0)`}>
                    <line y2={5} stroke={AXIS} />
                    <text y={17}>{formatNumber(t)}</text>
                  </g>
                ))}
                <text x={r2(plotW / 2)} y={34} fontSize={11}>{xLabel}</text>
              </g>
              {p.series.map((s) => {
                const pts = s.points.filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
                const color = colorFor(s.colorIndex);
                return (
                  <g key={s.name} className="multi-series" data-series={s.name}>
                    <path className="multi-line" d={gen(pts) ?? ''} fill="none" stroke={color} strokeWidth={2} />
                    {pts.map(([a, b], j) => (
                      <Marker key={j} i={s.colorIndex} x={r2(x(a))} y={r2(y(b))} color={color} />
                    ))}
                  </g>
                );
              })}
            </g>
          );
        })}
        <g className="multi-legend" transform={`translate(${PAD.left},${rows * panelHeight + 4})`}>
          {names.map((n, k) => (
            <g key={n.name} className="multi-legend-item" transform={`translate(${(k % perRow) * 170},${Math.floor(k / perRow) * 22 + 6})`}>
              <line x1={0} x2={24} stroke={colorFor(n.colorIndex)} strokeWidth={2} />
              <Marker i={n.colorIndex} x={12} y={0} color={colorFor(n.colorIndex)} />
              <text x={30} dy="0.32em">{n.name.length > 20 ? `${n.name.slice(0, 19)}…` : n.name}</text>
            </g>
          ))}
        </g>
      </svg>
    </div>
  );
}
