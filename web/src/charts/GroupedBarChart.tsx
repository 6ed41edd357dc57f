// Grouped bar chart (D3 scales, React-rendered SVG like CdfChart): one group per class,
// one bar per series (run) inside it. The class gives the colour, the series a fill
// pattern (solid, hatched, dotted, ...), explained by the legend.
import { useId, useMemo, type Ref } from 'react';
import { scaleBand, scaleLinear } from 'd3-scale';
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

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const TEXT = '#222222';
const AXIS = '#555555';
const GRID = '#e0e0e0';
const MARGIN = { top: 16, right: 12, bottom: 44, left: 60 };
const r2 = (v: number): number => Math.round(v * 100) / 100 + 0;

/** Pattern of series `k`: solid, then hatches and dots drawn in the group colour. */
export function patternKind(k: number): 'solid' | 'diagonal' | 'dots' | 'horizontal' | 'cross' | 'vertical' {
  const kinds = ['solid', 'diagonal', 'dots', 'horizontal', 'cross', 'vertical'] as const;
  return kinds[((k % kinds.length) + kinds.length) % kinds.length] ?? 'solid';
}

function PatternDef({ id, kind, color }: { id: string; kind: ReturnType<typeof patternKind>; color: string }) {
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

/** Fill of a bar of series `k` in group colour `color` (pattern id when not solid). */
function fillFor(k: number, color: string, prefix: string, colorIndex: number): string {
  return patternKind(k) === 'solid' ? color : `url(#${prefix}-${colorIndex}-${k})`;
}

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
  const patterns = groups.flatMap((g) =>
    seriesLabels.map((_, k) =>
      patternKind(k) === 'solid' ? null : (
        <PatternDef key={`${g.colorIndex}-${k}`} id={`${prefix}-${g.colorIndex}-${k}`} kind={patternKind(k)} color={colorFor(g.colorIndex)} />
      ),
    ),
  );
  return (
    <div ref={containerRef} className="bar-chart" style={{ width: width === undefined ? '100%' : w }}>
      <svg ref={svgRef} role="img" aria-label={`${title}. ${summary}`} width={w} height={height}
        viewBox={`0 0 ${w} ${height}`} fontFamily={FONT} fontSize={12} fill={TEXT}>
        <title>{title}</title>
        <desc>{summary}</desc>
        <defs>{patterns}</defs>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          <g className="bar-grid" stroke={GRID}>
            {ticks.slice(1).map((t) => (
              <line key={t} x1={0} x2={plotW} y1={r2(y(t))} y2={r2(y(t))} />
            ))}
          </g>
          <g className="bar-y-axis" fontSize={11} textAnchor="end">
            <line y1={0} y2={plotH} stroke={AXIS} />
            {ticks.map((t) => (
              <g key={t} transform={`translate(0,${r2(y(t))})`}>
                <line x2={-6} stroke={AXIS} />
                <text x={-9} dy="0.32em">{format(t)}</text>
              </g>
            ))}
            <text transform={`translate(-48,${r2(plotH / 2)}) rotate(-90)`} textAnchor="middle" fontSize={12}>
              {yLabel}
            </text>
          </g>
          <g className="bars">
            {groups.map((g, i) => (
              <g key={i} className="bar-group" transform={`translate(${r2(x0(String(i)) ?? 0)},0)`}>
                {g.values.map((v, k) =>
                  v === null || !Number.isFinite(v) ? null : (
                    <rect key={k} className="tp-bar" data-group={i} data-series={k}
                      x={r2(x1(String(k)) ?? 0)} y={r2(y(Math.max(0, v)))} width={r2(x1.bandwidth())}
                      height={r2(Math.max(0, plotH - y(Math.max(0, v))))}
                      fill={fillFor(k, colorFor(g.colorIndex), prefix, g.colorIndex)}
                      stroke={colorFor(g.colorIndex)} strokeWidth={1}>
                      <title>{`${g.name}, ${seriesLabels[k] ?? ''}: ${format(v)}`}</title>
                    </rect>
                  ),
                )}
              </g>
            ))}
          </g>
          <g className="bar-x-axis" transform={`translate(0,${plotH})`} fontSize={11} textAnchor="middle">
            <line x1={0} x2={plotW} stroke={AXIS} />
            {groups.map((g, i) => (
              <g key={i} transform={`translate(${r2((x0(String(i)) ?? 0) + x0.bandwidth() / 2)},0)`}>
                <rect x={-5} y={8} width={10} height={10} fill={colorFor(g.colorIndex)} />
                <text y={32}>{g.name}</text>
              </g>
            ))}
          </g>
        </g>
        <g className="bar-legend" transform={`translate(${MARGIN.left},${height - legendH + 4})`}>
          {seriesLabels.map((label, k) => (
            <g key={k} className="bar-legend-item" transform={`translate(${(k % perRow) * 220},${Math.floor(k / perRow) * 22})`}>
              <rect width={22} height={12} fill={patternKind(k) === 'solid' ? AXIS : `url(#${prefix}-legend-${k})`} stroke={AXIS} />
              {patternKind(k) === 'solid' ? null : (
                <defs>
                  <PatternDef id={`${prefix}-legend-${k}`} kind={patternKind(k)} color={AXIS} />
                </defs>
              )}
              <text x={28} y={6} dy="0.32em">{label.length > 28 ? `${label.slice(0, 27)}…` : label}</text>
            </g>
          ))}
        </g>
      </svg>
    </div>
  );
}
