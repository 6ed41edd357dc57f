import { useRef, useState } from 'react';
import { CdfChart } from './CdfChart';
import type { CdfSeries } from './CdfChart';
import { cdfToCsv, downloadPng, downloadSvg, downloadText } from './export';

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
  const [status, setStatus] = useState('');
  const svgRef = useRef<SVGSVGElement>(null);

  const exportPng = async () => {
    const svg = svgRef.current;
    if (!svg) return;
    setStatus('');
    try {
      await downloadPng(svg, `${filename}.png`);
    } catch (e) {
      setStatus(`PNG export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <section className="cdf-panel" aria-label={title}>
      <div className="cdf-toolbar" role="group" aria-label={`${title} options`}
        style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'center' }}>
        <label>
          <input type="checkbox" checked={logX} onChange={(e) => setLogX(e.currentTarget.checked)} /> Log scale (x)
        </label>
        <button type="button" onClick={() => svgRef.current && downloadSvg(svgRef.current, `${filename}.svg`)}>
          Export SVG
        </button>
        <button type="button" onClick={() => void exportPng()}>Export PNG</button>
        <button type="button" onClick={() => downloadText(`${filename}.csv`, 'text/csv;charset=utf-8', cdfToCsv(series))}>
          Export CSV
        </button>
        <span role="status">{status}</span>
      </div>
      <CdfChart series={series} logX={logX} title={title} width={width} height={height} svgRef={svgRef} />
    </section>
  );
}
