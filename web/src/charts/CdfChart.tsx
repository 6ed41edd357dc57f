import { useMemo } from 'react';
import type { Ref } from 'react';
import { scaleLinear, scaleLog } from 'd3-scale';
import { AXIS, FONT, GridLines, Legend, LineMark, TEXT, XAxis, YAxis, cdfPath, lineSwatch, r2, truncate, type AxisTick } from './marks';
import { colorFor } from './palette';
import { useContainerWidth } from './useContainerWidth';
import { chooseTimeUnit, formatNumber } from './units';
import type { TimeScale } from './units';

/** One cumulative distribution to draw: `points` are `[latency_ns, fraction]`, increasing. */
export interface CdfSeries {
  /** Stable key, e.g. the class index or `"run1:Voice"`. */
  id: string;
  /** Legend text. */
  label: string;
  points: ReadonlyArray<readonly [number, number]>;
  /** Stroke colour; default: palette by index. */
  color?: string;
  /** Optional stroke-dasharray, e.g. to overlay several runs. */
  dash?: string;
}

/** Props of {@link CdfChart}. */
export interface CdfChartProps {
  series: ReadonlyArray<CdfSeries>;
  /** Logarithmic latency axis. */
  logX: boolean;
  /** Width in px; if absent, follows the container (720 without ResizeObserver). */
  width?: number;
  /** Height in px (default 360). */
  height?: number;
  /** Accessible name of the chart (default "Latency CDF"). */
  title?: string;
  /** Receives the `<svg>` element, e.g. for export. */
  svgRef?: Ref<SVGSVGElement>;
}

/** Builds series from engine class results (`latency_ns.cdf`), ids `${idPrefix}${index}`. */
export function classesToCdfSeries(
  classes: ReadonlyArray<{ name: string; latency_ns: { cdf: ReadonlyArray<readonly [number, number]> } }>,
  idPrefix = '',
): CdfSeries[] {
  return classes.map((c, i) => ({ id: `${idPrefix}${i}`, label: c.name, points: c.latency_ns.cdf }));
}

const MARGIN = { top: 16, right: 12, bottom: 48, left: 60 };
const CHAR_W = 6.8; // estimated width of a 12 px character (no layout in tests or export)
const Y_TICKS = [0, 0.25, 0.5, 0.75, 1];


/** X scale in display units, its ticks, and the domain. */
function xAxis(xs: number[], logX: boolean, plotW: number) {
  if (logX) {
    const pos = xs.filter((x) => x > 0);
    const lo0 = pos.length ? Math.min(...pos) : 1;
    const hi0 = pos.length ? Math.max(...pos) : 10;
    const e0 = Math.floor(Math.log10(lo0) + 1e-9);
    let e1 = Math.ceil(Math.log10(hi0) - 1e-9);
    if (e1 <= e0) e1 = e0 + 1;
    const scale = scaleLog().domain([10 ** e0, 10 ** e1]).range([0, plotW]).clamp(true);
    // Label every `step`-th decade so that labels (~6.5 px a character at 11 px) never touch.
    let longest = 1;
    for (let e = e0; e <= e1; e++) longest = Math.max(longest, formatNumber(10 ** e, 6).length);
    const maxLabels = Math.max(2, Math.floor(plotW / (longest * 6.5 + 14)) + 1);
    const step = Math.ceil((e1 - e0 + 1) / maxLabels);
    const ticks: AxisTick[] = [];
    for (let e = e0; e <= e1; e++) {
      const base = 10 ** e;
      const labelled = (e - e0) % step === 0;
      ticks.push({ at: r2(scale(base)), label: labelled ? formatNumber(base, 6) : null });
      if (e === e1) break;
      for (let m = 2; m <= 9; m++) {
        const label = e1 - e0 === 1 && (m === 2 || m === 5) ? formatNumber(m * base, 6) : null;
        ticks.push({ at: r2(scale(m * base)), label });
      }
    }
    return { scale, ticks, domain: scale.domain() as [number, number] };
  }
  const lo0 = xs.length ? Math.min(...xs) : 0;
  const hi0 = xs.length ? Math.max(...xs) : 1;
  const pad = hi0 > lo0 ? (hi0 - lo0) * 0.05 : Math.abs(hi0) * 0.1 || 1;
  const lo = lo0 - pad < 0 || lo0 < (hi0 - lo0) * 0.25 ? Math.min(0, lo0) : lo0 - pad;
  const count = Math.max(2, Math.min(10, Math.floor(plotW / 60)));
  const scale = scaleLinear().domain([lo, hi0 + pad]).range([0, plotW]).nice(count);
  const fmt = scale.tickFormat(count);
  const ticks: AxisTick[] = scale.ticks(count).map((v) => ({ at: r2(scale(v)), label: fmt(v) }));
  return { scale, ticks, domain: scale.domain() as [number, number] };
}

/** Pure geometry of the chart, from props to rounded coordinates and labels. */
function layout(series: ReadonlyArray<CdfSeries>, logX: boolean, width: number, height: number) {
  const clean = series.map((s) => s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y)));
  const allNs = clean.flat().map(([x]) => x);
  const unit: TimeScale = chooseTimeUnit(allNs.length ? Math.max(...allNs.map(Math.abs)) : 0);
  const longest = Math.max(12, ...series.map((s) => s.label.length));
  const legendW = Math.round(Math.min(200, Math.max(110, 36 + longest * CHAR_W), width * 0.35));
  const plotW = Math.max(40, width - MARGIN.left - MARGIN.right - legendW - 16);
  const plotH = Math.max(40, height - MARGIN.top - MARGIN.bottom);
  const x = xAxis(allNs.map((v) => v / unit.factor), logX, plotW);
  const y = scaleLinear().domain([0, 1]).range([plotH, 0]);
  const [xLo, xHi] = x.domain;
  const px = (v: number) => r2(x.scale(Math.min(Math.max(v, xLo), xHi)));
  const py = (f: number) => r2(y(f));
  const maxChars = Math.floor((legendW - 36) / CHAR_W);
  const items = series.map((s, i) => {
    const disp = (clean[i] ?? []).map(([v, f]) => [v / unit.factor, f] as const);
    const d = disp.length > 0 ? cdfPath(disp, px, py) : null;
    return { s, d, color: s.color ?? colorFor(i), text: truncate(s.label, maxChars) };
  });
  return { unit, plotW, plotH, x, y, items, legendX: MARGIN.left + plotW + 16, empty: allNs.length === 0 };
}

/** Cumulative distribution functions of latency, one step curve per series, with legend. */
export function CdfChart({ series, logX, width, height = 360, title = 'Latency CDF', svgRef }: CdfChartProps) {
  const [containerRef, measured] = useContainerWidth(width === undefined);
  const w = Math.max(320, Math.round(width ?? measured));
  const g = useMemo(() => layout(series, logX, w, height), [series, logX, w, height]);
  const names = series.map((s) => (s.points.length ? s.label : `${s.label} (no packets)`)).join(', ');
  const summary = `Cumulative distribution of latency for ${series.length} series${names ? `: ${names}` : ''}. X axis: latency in ${g.unit.unit}, ${logX ? 'logarithmic' : 'linear'} scale.`;
  const xLabel = `Latency (${g.unit.unit})${logX ? ', log scale' : ''}`;
  return (
    <div ref={containerRef} className="cdf-chart" style={{ width: width === undefined ? '100%' : w }}>
      <svg ref={svgRef} role="img" aria-label={`${title}. ${summary}`} width={w} height={height}
        viewBox={`0 0 ${w} ${height}`} fontFamily={FONT} fontSize={12} fill={TEXT}>
        <title>{title}</title>
        <desc>{summary}</desc>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          <GridLines className="cdf-grid" at={Y_TICKS.slice(1).map((t) => g.y(t))} width={g.plotW} />
          <XAxis className="cdf-x-axis" titleClassName="axis-label" y={g.plotH} ticks={g.x.ticks} length={g.plotW}
            tickSize={6} title={xLabel} titleOffset={38} titleSize={12} />
          <YAxis className="cdf-y-axis" titleClassName="axis-label" ticks={Y_TICKS.map((t) => ({ at: g.y(t), label: formatNumber(t) }))}
            length={g.plotH} tickSize={6} title="Fraction of packets ≤ latency" titleOffset={46} titleSize={12} />
          {g.empty && (
            <text x={r2(g.plotW / 2)} y={r2(g.plotH / 2)} textAnchor="middle" fill={AXIS}>No latency data</text>
          )}
          <g className="cdf-curves">
            {g.items.map(({ s, d, color }) =>
              d ? <LineMark key={s.id} className="cdf-curve" series={s.id} d={d} color={color} dash={s.dash} /> : null,
            )}
          </g>
        </g>
        <Legend className="cdf-legend" itemClassName="cdf-legend-item" x={g.legendX} y={MARGIN.top + 8}
          items={g.items.map(({ s, d, color, text }) => ({
            key: s.id,
            series: s.id,
            text,
            full: s.label,
            swatch: lineSwatch(color, s.dash),
            ...(d ? {} : { note: '(no packets)' }),
          }))} />
      </svg>
    </div>
  );
}
