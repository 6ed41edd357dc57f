// The export buttons every chart toolbar shares: SVG, PNG and CSV, with a status line for a
// failed PNG export.
import { useState, type RefObject } from 'react';
import { downloadPng, downloadSvg, downloadText } from './export';

/** Props of {@link ExportButtons}. */
export interface ExportButtonsProps {
  /** The chart's SVG element. */
  svgRef: RefObject<SVGSVGElement | null>;
  /** Base of the file names (`<filename>.svg`, `.png`, `.csv`). */
  filename: string;
  /** The chart's data as CSV text (computed on click). */
  csv: () => string;
}

/** "Export SVG", "Export PNG", "Export CSV" and a status line, for a chart toolbar. */
export function ExportButtons({ svgRef, filename, csv }: ExportButtonsProps) {
  const [status, setStatus] = useState('');
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
    <>
      <button type="button" onClick={() => svgRef.current && downloadSvg(svgRef.current, `${filename}.svg`)}>
        Export SVG
      </button>
      <button type="button" onClick={() => void exportPng()}>
        Export PNG
      </button>
      <button type="button" onClick={() => downloadText(`${filename}.csv`, 'text/csv;charset=utf-8', csv())}>
        Export CSV
      </button>
      <span role="status">{status}</span>
    </>
  );
}
