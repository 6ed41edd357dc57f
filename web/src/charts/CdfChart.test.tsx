import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { CdfChart, classesToCdfSeries } from './CdfChart';
import type { CdfSeries } from './CdfChart';
import { CdfPanel } from './CdfPanel';
import { svgToString } from './export';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SERIES: CdfSeries[] = [
  { id: '0', label: 'Voice', points: [[1_200, 0.25], [2_500, 0.5], [8_000, 0.9], [40_000, 1]] },
  { id: '1', label: 'Bulk', points: [[5_000, 0.1], [90_000, 0.6], [400_000, 1]], dash: '4 2' },
];

const curves = (c: ParentNode) => Array.from(c.querySelectorAll<SVGPathElement>('path.cdf-curve'));
const xTickLabels = (c: ParentNode) =>
  Array.from(c.querySelectorAll('.cdf-x-axis .tick text')).map((t) => t.textContent);

describe('CdfChart', () => {
  it('draws one step curve per series, with legend and accessible name', () => {
    const { container } = render(<CdfChart series={SERIES} logX={false} title="Latency by class" />);
    const paths = curves(container);
    expect(paths.map((p) => p.dataset.series)).toEqual(['0', '1']);
    for (const p of paths) {
      const d = p.getAttribute('d') ?? '';
      expect(d).toMatch(/^M[\d.]+,[\d.]+/);
      // At most two decimals in every coordinate.
      expect(d).not.toMatch(/\.\d{3}/);
    }
    expect(paths[1]?.getAttribute('stroke-dasharray')).toBe('4 2');
    expect(paths[0]?.getAttribute('stroke')).not.toBe(paths[1]?.getAttribute('stroke'));
    expect(screen.getByText('Voice')).toBeTruthy();
    expect(screen.getByText('Bulk')).toBeTruthy();
    const svg = screen.getByRole('img');
    expect(svg.getAttribute('aria-label')).toContain('Latency by class');
    expect(svg.querySelector('title')?.textContent).toBe('Latency by class');
    expect(svg.getAttribute('width')).toBe('720'); // no ResizeObserver in jsdom
    expect(screen.getByText('Latency (µs)')).toBeTruthy();
    expect(screen.getByText('Fraction of packets ≤ latency')).toBeTruthy();
  });

  it('starts each curve at fraction 0 at the first latency', () => {
    const one: CdfSeries[] = [{ id: 'a', label: 'A', points: [[100, 0.5], [200, 1]] }];
    const { container } = render(<CdfChart series={one} logX={false} width={400} height={200} />);
    const d = curves(container)[0]?.getAttribute('d') ?? '';
    // Plot height is 200 - 16 - 48 = 136: the curve starts on the x axis (y = 136), then rises.
    const start = /^M([\d.]+),136[LV]/.exec(d);
    expect(start).not.toBeNull();
  });

  it('lists series without points as "(no packets)" and draws no path for them', () => {
    const series: CdfSeries[] = [...SERIES, { id: '2', label: 'Idle', points: [] }];
    const { container } = render(<CdfChart series={series} logX={false} />);
    expect(curves(container)).toHaveLength(2);
    expect(screen.getByText('Idle')).toBeTruthy();
    expect(screen.getByText('(no packets)')).toBeTruthy();
    expect(container.querySelectorAll('.cdf-legend-item')).toHaveLength(3);
  });

  it('shows an empty chart when there is no data', () => {
    render(<CdfChart series={[]} logX />);
    expect(screen.getByText('No latency data')).toBeTruthy();
  });

  it('switches to a log axis with decade labels', () => {
    const { container, rerender } = render(<CdfChart series={SERIES} logX={false} width={720} />);
    const linTicks = xTickLabels(container);
    const linPaths = curves(container).map((p) => p.getAttribute('d'));
    rerender(<CdfChart series={SERIES} logX width={720} />);
    const logTicks = xTickLabels(container);
    expect(linTicks).toEqual(['0', '50', '100', '150', '200', '250', '300', '350', '400', '450']);
    expect(logTicks).toEqual(['1', '10', '100', '1000']);
    expect(curves(container).map((p) => p.getAttribute('d'))).not.toEqual(linPaths);
    expect(container.querySelectorAll('.cdf-x-axis .tick.minor').length).toBeGreaterThan(0);
    expect(screen.getByText('Latency (µs), log scale')).toBeTruthy();
  });

  it('thins log labels when there are many decades', () => {
    const wide: CdfSeries[] = [{ id: 'w', label: 'W', points: [[0.5, 0.1], [3e8, 1]] }];
    const { container } = render(<CdfChart series={wide} logX width={360} />);
    // 0.5 ns .. 300 ms in ms: 11 decades on a ~150 px wide plot.
    expect(xTickLabels(container)).toEqual(['1e-7', '0.001', '10']);
  });

  it('renders deterministically (snapshot of curves and ticks)', () => {
    const one: CdfSeries[] = [{ id: 'a', label: 'A', points: [[100, 0.5], [300, 1]] }];
    const { container } = render(<CdfChart series={one} logX={false} width={400} height={200} />);
    expect({ d: curves(container)[0]?.getAttribute('d'), ticks: xTickLabels(container) }).toMatchInlineSnapshot(`
      {
        "d": "M48.5,136L48.5,136L48.5,68L145.5,68L145.5,0",
        "ticks": [
          "0",
          "100",
          "200",
          "300",
          "400",
        ],
      }
    `);
  });

  it('exposes the svg through svgRef, and exports it with the curves', () => {
    const ref = createRef<SVGSVGElement>();
    render(<CdfChart series={SERIES} logX={false} svgRef={ref} />);
    expect(ref.current).toBeInstanceOf(SVGSVGElement);
    const text = svgToString(ref.current as SVGSVGElement);
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(text.match(/class="cdf-curve"/g)).toHaveLength(2);
    expect(text).toContain('Voice');
  });
});

describe('classesToCdfSeries', () => {
  it('maps engine class results', () => {
    const s = classesToCdfSeries([{ name: 'Voice', latency_ns: { cdf: [[10, 1]] } }], 'run1:');
    expect(s).toEqual([{ id: 'run1:0', label: 'Voice', points: [[10, 1]] }]);
  });
});

describe('CdfPanel', () => {
  it('toggles the log scale with a labelled checkbox', () => {
    const { container } = render(<CdfPanel series={SERIES} />);
    const box = screen.getByRole('checkbox', { name: 'Log scale (x)' });
    expect((box as HTMLInputElement).checked).toBe(false);
    const before = xTickLabels(container);
    fireEvent.click(box);
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(xTickLabels(container)).not.toEqual(before);
    expect(screen.getByRole('button', { name: 'Export PNG' })).toBeTruthy();
  });

  it('exports CSV and SVG files', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(Object.create(URL) as typeof URL, {
      createObjectURL: (b: Blob) => (blobs.push(b), `blob:${blobs.length}`),
      revokeObjectURL: () => {},
    }));
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    render(<CdfPanel series={SERIES.slice(0, 1)} filename="run1" />);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export SVG' }));
    expect(names).toEqual(['run1.csv', 'run1.svg']);
    expect(await blobs[0]?.text()).toBe(
      'series,latency_ns,fraction\r\nVoice,1200,0.25\r\nVoice,2500,0.5\r\nVoice,8000,0.9\r\nVoice,40000,1\r\n',
    );
    expect(blobs[1]?.type).toContain('image/svg+xml');
    expect(await blobs[1]?.text()).toContain('class="cdf-curve"');
  });
});
