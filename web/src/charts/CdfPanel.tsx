import { useRef, useState } from 'react';
import { CdfChart } from './CdfChart';
import type { CdfSeries } from './CdfChart';
import { cdfToCsv } from './export';
import { ExportButtons } from './ExportButtons';

/** Props of {@link CdfPanel}. */
export interface CdfPanelProps {
  series: ReadonlyArray<CdfSeries>;
  /** Chart title / accessible name (default "Latency CDF"). */
  title?: string;
  /** Initial state of the log-scale checkbox (default false). */
  defaultLogX?: boolean;
  /** Base of exported file names (default "latency-cdf"). */
  filename?: string;
  width?: number;
  height?: number;
}

/** Latency CDF chart with a toolbar: log-scale toggle and SVG / PNG / CSV export. */
export function CdfPanel({ series, title = 'Latency CDF', defaultLogX = false, filename = 'latency-cdf', width, height }: CdfPanelProps) {
  const [logX, setLogX] = useState(defaultLogX);
  const svgRef = useRef<SVGSVGElement>(null);

  return (
    <section className="cdf-panel" aria-label={title}>
      <div className="cdf-toolbar" role="group" aria-label={`${title} options`}
        style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'center' }}>
        <label>
          <input type="checkbox" checked={logX} onChange={(e) => setLogX(e.currentTarget.checked)} /> Log scale (x)
        </label>
        <ExportButtons svgRef={svgRef} filename={filename} csv={() => cdfToCsv(series)} />
      </div>
      <CdfChart series={series} logX={logX} title={title} width={width} height={height} svgRef={svgRef} />
    </section>
  );
}
