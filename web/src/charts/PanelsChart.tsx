// Small multiples (D3 scales and shapes, React-rendered SVG): one panel per class (R2 view)
// or per scheduler (sweep view) with the same axes, one line per series (palette colour and
// marker shape per series), a shared legend; panels sit side by side when the width allows.
// A series may carry a 90% confidence band (shaded area plus whiskers at each point), or be
// drawn as a step curve (latency and jitter CDFs, log or symmetric x).
import type { Ref } from 'react';
import { scaleLinear, scaleLog } from 'd3-scale';
import { BandMark, FONT, GridLines, Legend, LineMark, Marker, TEXT, XAxis, YAxis, bandPath, linePath, lineSwatch, r2 } from './marks';
import { colorFor } from './palette';
import { formatNumber } from './units';
import { useContainerWidth } from './useContainerWidth';

/** One line of a panel. */
export interface PanelSeries {
  name: string;
  colorIndex: number;
  /** `[x, y]` points, x increasing. */
  points: ReadonlyArray<readonly [number, number]>;
  /** `[x, low, high]` of the confidence band, x increasing (optional). */
  band?: ReadonlyArray<readonly [number, number, number]>;
}

/** One panel. */
export interface Panel {
  title: string;
  series: readonly PanelSeries[];
}

export interface PanelsChartProps {
  panels: readonly Panel[];
  xLabel: string;
  yLabel: string;
  /** Accessible name and `<title>`. */
  title: string;
  /** Step curves without markers (CDFs); default: lines with markers. */
  step?: boolean;
  /** Logarithmic x axis (positive x only). */
  logX?: boolean;
  /** Linear x axis symmetric around 0 (from −max |x| to +max |x|; signed values such as jitter). */
  symmetricX?: boolean;
  /** Fixed linear x domain (default: around the data). */
  xDomain?: readonly [number, number];
  /** Fixed y domain (default from 0 to the largest value or band top). */
  yDomain?: readonly [number, number];
  /** Each panel its own y axis (from 0 to its own largest value); default: the same for all. */
  independentY?: boolean;
  width?: number;
  /** Height of one panel (default 230). */
  panelHeight?: number;
  svgRef?: Ref<SVGSVGElement>;
}

const PAD = { top: 26, right: 14, bottom: 44, left: 56 };
const finite = (v: number) => Number.isFinite(v);

/** Columns of the grid of panels for a width. */
export function panelColumns(count: number, width: number): number {
  if (count <= 1) return 1;
  return Math.max(1, Math.min(count, Math.floor(width / 260)));
}

/** The x scale: linear around the data (loads do not start at 0), or log over whole decades. */
function xScale(xs: number[], logX: boolean, plotW: number, symmetric = false, domain?: readonly [number, number]) {
  if (domain) {
    const s = scaleLinear().domain([domain[0], domain[1]]).range([0, plotW]).nice(6);
    return { scale: (v: number) => s(v), ticks: s.ticks(Math.max(2, Math.min(8, Math.floor(plotW / 50)))) };
  }
  if (logX) {
    const pos = xs.filter((v) => v > 0);
    const e0 = Math.floor(Math.log10(pos.length ? Math.min(...pos) : 1));
    let e1 = Math.ceil(Math.log10(pos.length ? Math.max(...pos) : 10));
    if (e1 <= e0) e1 = e0 + 1;
    const s = scaleLog().domain([10 ** e0, 10 ** e1]).range([0, plotW]).clamp(true);
    const ticks: number[] = [];
    for (let e = e0; e <= e1; e++) ticks.push(10 ** e);
    return { scale: (v: number) => s(v), ticks };
  }
  const m = Math.max(1e-9, ...xs.map(Math.abs));
  const lo = symmetric ? -m : xs.length ? Math.min(...xs) : 0;
  const hi = symmetric ? m : xs.length ? Math.max(...xs) : 1;
  // A symmetric axis needs no margin: it already reaches the largest magnitude on both sides.
  const pad = symmetric ? 0 : hi > lo ? (hi - lo) * 0.05 : Math.max(0.05, Math.abs(hi) * 0.05);
  const s = scaleLinear().domain([lo - pad, hi + pad]).range([0, plotW]).nice(6);
  return { scale: (v: number) => s(v), ticks: s.ticks(Math.max(2, Math.min(8, Math.floor(plotW / 55)))) };
}

export function PanelsChart({
  panels,
  xLabel,
  yLabel,
  title,
  step = false,
  logX = false,
  symmetricX = false,
  xDomain,
  yDomain,
  independentY = false,
  width,
  panelHeight = 230,
  svgRef,
}: PanelsChartProps) {
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
  const all = panels.flatMap((p) => p.series);
  const xs = all.flatMap((s) => s.points.map(([v]) => v)).filter(finite);
  const tops = (series: readonly PanelSeries[]) =>
    series.flatMap((s) => [...s.points.map(([, v]) => v), ...(s.band ?? []).map(([, , hi]) => hi)]).filter(finite);
  const x = xScale(xs, logX, plotW, symmetricX, xDomain);
  const yScale = (series: readonly PanelSeries[]) => {
    const sc = scaleLinear()
      .domain(yDomain ? [yDomain[0], yDomain[1]] : [0, Math.max(1e-9, ...tops(series))])
      .range([plotH, 0]);
    if (!yDomain) sc.nice(5);
    return sc;
  };
  const shared = yScale(all);
  const summary = `${panels.length} panels (${panels.map((p) => p.title).join(', ')}), ${independentY ? 'same x axis, each its own y axis' : 'same axes'}. X: ${xLabel}. Y: ${yLabel}. Lines: ${names.map((n) => n.name).join(', ')}.${all.some((s) => (s.band ?? []).length > 0) ? ' Shaded bands: 90% confidence intervals over the seeds.' : ''}`;
  return (
    <div ref={containerRef} className="multiples-chart" style={{ width: width === undefined ? '100%' : w }}>
      <svg ref={svgRef} role="img" aria-label={`${title}. ${summary}`} width={w} height={height}
        viewBox={`0 0 ${w} ${height}`} fontFamily={FONT} fontSize={12} fill={TEXT}>
        <title>{title}</title>
        <desc>{summary}</desc>
        {panels.map((p, k) => {
          const ySc = independentY ? yScale(p.series) : shared;
          const y = (v: number) => ySc(v);
          const ox = (k % cols) * cellW + PAD.left;
          const oy = Math.floor(k / cols) * panelHeight + PAD.top;
          return (
            <g key={k} className="panel-plot" data-panel={p.title} transform={`translate(${r2(ox)},${r2(oy)})`}>
              <text className="panel-title" x={r2(plotW / 2)} y={-10} textAnchor="middle" fontWeight="bold">
                {p.title}
              </text>
              <GridLines at={ySc.ticks(5).slice(1).map(y)} width={plotW} />
              <YAxis ticks={ySc.ticks(5).map((t) => ({ at: y(t), label: formatNumber(t, 6) }))} length={plotH} title={yLabel} titleOffset={42} />
              <XAxis y={plotH} ticks={x.ticks.map((t) => ({ at: x.scale(t), label: formatNumber(t, 6) }))} length={plotW} title={xLabel} titleOffset={34} />
              {p.series.map((s) => {
                const pts = s.points.filter(([a, b]) => finite(a) && finite(b) && (!logX || a > 0));
                const band = (s.band ?? []).filter(([a, lo, hi]) => finite(a) && finite(lo) && finite(hi));
                const color = colorFor(s.colorIndex);
                const first = pts[0];
                const d = step && first ? linePath([[first[0], 0], ...pts], x.scale, y, true) : linePath(pts, x.scale, y, step);
                return (
                  <g key={s.name} className="panel-series" data-series={s.name}>
                    {band.length > 0 ? (
                      <BandMark series={s.name} d={bandPath(band, x.scale, y)} color={color}
                        whiskers={band.map(([a, lo, hi]) => [x.scale(a), y(lo), y(hi)] as const)} />
                    ) : null}
                    <LineMark className="panel-line" d={d} color={color} />
                    {step
                      ? null
                      : pts.map(([a, b], j) => <Marker key={j} i={s.colorIndex} x={r2(x.scale(a))} y={r2(y(b))} color={color} />)}
                  </g>
                );
              })}
            </g>
          );
        })}
        <Legend className="multi-legend" itemClassName="multi-legend-item" x={PAD.left} y={rows * panelHeight + 10}
          columns={perRow} columnWidth={170} rowHeight={22}
          items={names.map((n) => ({ key: n.name, text: n.name, swatch: lineSwatch(colorFor(n.colorIndex), undefined, step ? undefined : n.colorIndex) }))} />
      </svg>
    </div>
  );
}
