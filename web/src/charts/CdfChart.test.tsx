import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { CdfChart, classesToCdfSeries } from './CdfChart';
import type { CdfSeries } from './CdfChart';
import { CdfPanel } from './CdfPanel';
import { svgToString } from './export';
import { svgSnapshot } from './svgSnapshot';

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
  it('names the chart for assistive technology and follows the container (720 px without ResizeObserver)', () => {
    render(<CdfChart series={SERIES} logX={false} title="Latency by class" />);
    const svg = screen.getByRole('img');
    expect(svg.getAttribute('aria-label')).toContain('Latency by class');
    expect(svg.getAttribute('aria-label')).toContain('Voice, Bulk');
    expect(svg.querySelector('title')?.textContent).toBe('Latency by class');
    expect(svg.getAttribute('width')).toBe('720');
  });

  it('draws step curves from fraction 0, a dashed run, axes in µs and the legend (snapshot)', () => {
    const { container } = render(<CdfChart series={SERIES} logX={false} width={480} height={240} />);
    expect(curves(container)).toHaveLength(2);
    expect(svgSnapshot(container)).toMatchSnapshot();
  });

  it('draws a log axis with decade labels and minor ticks (snapshot)', () => {
    const { container } = render(<CdfChart series={SERIES} logX width={480} height={240} />);
    expect(xTickLabels(container)).toEqual(['1', '10', '100', '1000']);
    expect(svgSnapshot(container)).toMatchSnapshot();
  });

  it('lists series without points as "(no packets)" and cuts long names (snapshot)', () => {
    const series: CdfSeries[] = [
      ...SERIES.slice(0, 1),
      { id: '2', label: 'Idle class with a very long name indeed', points: [] },
    ];
    const { container } = render(<CdfChart series={series} logX={false} width={400} height={200} />);
    expect(curves(container)).toHaveLength(1);
    expect(screen.getByText('(no packets)')).toBeTruthy();
    expect(svgSnapshot(container)).toMatchSnapshot();
  });

  it('shows an empty chart when there is no data (snapshot)', () => {
    const { container } = render(<CdfChart series={[]} logX width={400} height={200} />);
    expect(screen.getByText('No latency data')).toBeTruthy();
    expect(svgSnapshot(container)).toMatchSnapshot();
  });

  it('thins log labels when there are many decades', () => {
    const wide: CdfSeries[] = [{ id: 'w', label: 'W', points: [[0.5, 0.1], [3e8, 1]] }];
    const { container } = render(<CdfChart series={wide} logX width={360} />);
    // 0.5 ns .. 300 ms in ms: 11 decades on a ~150 px wide plot.
    expect(xTickLabels(container)).toEqual(['1e-7', '0.001', '10']);
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
