// Charts: latency CDF chart and panel, palette, time units, export helpers.
export { CdfChart, classesToCdfSeries } from './CdfChart';
export type { CdfChartProps, CdfSeries } from './CdfChart';
export { CdfPanel } from './CdfPanel';
export { ExportButtons } from './ExportButtons';
export type { CdfPanelProps } from './CdfPanel';
export { cdfToCsv, csvField, downloadPng, downloadSvg, downloadText, svgToString } from './export';
export { PALETTE, colorFor } from './palette';
export { chooseTimeUnit, formatNumber, formatTime, toUnit } from './units';
export type { TimeScale, TimeUnit } from './units';
