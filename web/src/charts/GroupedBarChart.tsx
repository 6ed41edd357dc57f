// Grouped bar chart (D3 scales, React-rendered SVG like CdfChart): one group per class,
// one bar per series (run) inside it. The class gives the colour, the series a fill
// pattern (solid, hatched, dotted, ...), explained by the legend.
import { useId, useMemo, type Ref } from 'react';
import { scaleBand, scaleLinear } from 'd3-scale';
import { BarPatterns, FONT, GridLines, GroupedBars, Legend, TEXT, XAxis, YAxis, patternSwatch } from './marks';
import { colorFor } from './palette';
import { formatNumber } from './units';
import { useContainerWidth } from './useContainerWidth';

/** One group of bars. */
export interface BarGroupData {
  /** Group name (x axis label). */
  name: string;
  /** Colour index of the group (palette). */
  colorIndex: number;
  /** One value per series (null = no bar). */
  values: readonly (number | null)[];
}

export interface GroupedBarChartProps {
  groups: readonly BarGroupData[];
  /** Names of the series (bars inside a group), in order. */
  seriesLabels: readonly string[];
  /** Y axis label. */
  yLabel: string;
  /** Formats a value for the y ticks and tooltips. */
  format?: (v: number) => string;
  title: string;
  width?: number;
  height?: number;
  svgRef?: Ref<SVGSVGElement>;
}

const MARGIN = { top: 16, right: 12, bottom: 44, left: 60 };

export function GroupedBarChart({
  groups,
  seriesLabels,
  yLabel,
  format = (v) => formatNumber(v),
  title,
  width,
  height = 320,
  svgRef,
}: GroupedBarChartProps) {
  const [containerRef, measured] = useContainerWidth(width === undefined);
  const w = Math.max(320, Math.round(width ?? measured));
  const uid = useId();
  const prefix = useMemo(() => `bars${uid.replace(/[^A-Za-z0-9_-]/g, '')}`, [uid]);
  const legendH = 22 * Math.ceil(seriesLabels.length / Math.max(1, Math.floor((w - MARGIN.left) / 220)));
  const plotW = Math.max(40, w - MARGIN.left - MARGIN.right);
  const plotH = Math.max(40, height - MARGIN.top - MARGIN.bottom - legendH);
  const values = groups.flatMap((g) => g.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const top = Math.max(0.0001, ...values);
  const y = scaleLinear().domain([0, top]).nice(5).range([plotH, 0]);
  const x0 = scaleBand<string>()
    .domain(groups.map((_, i) => String(i)))
    .range([0, plotW])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const x1 = scaleBand<string>()
    .domain(seriesLabels.map((_, k) => String(k)))
    .range([0, x0.bandwidth()])
    .padding(0.08);
  const ticks = y.ticks(5);
  const perRow = Math.max(1, Math.floor((w - MARGIN.left) / 220));
  const summary = `Grouped bars: ${groups.length} groups (${groups.map((g) => g.name).join(', ')}), one bar per series (${seriesLabels.join(', ')}). Y axis: ${yLabel}.`;
  return (
    <div ref={containerRef} className="bar-chart" style={{ width: width === undefined ? '100%' : w }}>
      <svg ref={svgRef} role="img" aria-label={`${title}. ${summary}`} width={w} height={height}
        viewBox={`0 0 ${w} ${height}`} fontFamily={FONT} fontSize={12} fill={TEXT}>
        <title>{title}</title>
        <desc>{summary}</desc>
        <defs>
          <BarPatterns colorIndices={groups.map((g) => g.colorIndex)} series={seriesLabels.length} prefix={prefix} />
        </defs>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          <GridLines className="bar-grid" at={ticks.slice(1).map((t) => y(t))} width={plotW} />
          <YAxis className="bar-y-axis" ticks={ticks.map((t) => ({ at: y(t), label: format(t) }))} length={plotH}
            tickSize={6} title={yLabel} titleOffset={48} titleSize={12} />
          <GroupedBars
            groups={groups.map((g, i) => ({
              name: g.name,
              colorIndex: g.colorIndex,
              x: x0(String(i)) ?? 0,
              bars: g.values.map((v, k) => ({ x: x1(String(k)) ?? 0, value: v })),
            }))}
            barWidth={x1.bandwidth()} y={y} base={plotH} seriesLabels={seriesLabels} format={format} prefix={prefix} />
          <XAxis className="bar-x-axis" y={plotH} length={plotW}
            ticks={groups.map((g, i) => ({
              at: (x0(String(i)) ?? 0) + x0.bandwidth() / 2,
              label: g.name,
              mark: <rect x={-5} y={8} width={10} height={10} fill={colorFor(g.colorIndex)} />,
            }))} />
        </g>
        <Legend className="bar-legend" itemClassName="bar-legend-item" x={MARGIN.left} y={height - legendH + 10}
          columns={perRow} columnWidth={220} rowHeight={22} textX={28}
          items={seriesLabels.map((label, k) => ({
            key: String(k),
            text: label.length > 28 ? `${label.slice(0, 27)}…` : label,
            full: label,
            swatch: patternSwatch(k, `${prefix}-legend-${k}`),
          }))} />
      </svg>
    </div>
  );
}
