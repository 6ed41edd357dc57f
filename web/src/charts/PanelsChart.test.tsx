import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PanelsChart, type Panel } from './PanelsChart';
import { svgSnapshot } from './svgSnapshot';

afterEach(cleanup);

const panels: Panel[] = [
  {
    title: 'VO',
    series: [
      { name: 'DTable', colorIndex: 0, points: [[0.8, 10], [1, 20]], band: [[0.8, 9, 11], [1, 18, 22]] },
      { name: 'DRR', colorIndex: 3, points: [[0.8, 12], [1, 30]] },
    ],
  },
  { title: 'BE', series: [{ name: 'DTable', colorIndex: 0, points: [[0.8, 100], [1, 200]], band: [[0.8, 100, 100]] }] },
];

describe('PanelsChart', () => {
  it('draws a panel per class, a line per scheduler, and bands with whiskers only where given (snapshot)', () => {
    const { container } = render(<PanelsChart panels={panels} title="Mean latency" xLabel="Load" yLabel="µs" width={600} />);
    expect(container.querySelectorAll('g.panel-plot')).toHaveLength(2);
    expect(container.querySelectorAll('path.ci-band')).toHaveLength(2);
    expect(container.querySelector('svg')?.getAttribute('aria-label')).toMatch(/same axes.*90% confidence intervals/);
    expect(svgSnapshot(container)).toMatchSnapshot();
  });

  it('independent y axes scale each panel to its own values', () => {
    const heights = (independentY: boolean) => {
      const { container } = render(<PanelsChart panels={panels} title="t" xLabel="x" yLabel="y" width={900} independentY={independentY} />);
      const h = [...container.querySelectorAll('g.ci-whiskers line')].map((l) => Number(l.getAttribute('y1')) - Number(l.getAttribute('y2')));
      cleanup();
      return h[0] ?? 0;
    };
    expect(heights(true)).toBeGreaterThan(5 * heights(false));
  });

  it('step curves (CDFs) start at 0 and have no markers (snapshot)', () => {
    const cdf: Panel[] = [{ title: 'VO', series: [{ name: 'DTable', colorIndex: 0, points: [[1, 0.5], [10, 1]] }] }];
    const { container } = render(<PanelsChart panels={cdf} title="CDF" xLabel="x" yLabel="y" width={600} step logX yDomain={[0, 1]} />);
    // From fraction 0 (the bottom, y = 160) up in steps: 0.5 at x = 1, 1 at x = 10.
    expect(container.querySelector('path.panel-line')?.getAttribute('d')).toBe('M0,160L0,160L0,80L530,80L530,0');
    expect(svgSnapshot(container)).toMatchSnapshot();
  });

  it('a symmetric x axis puts 0 in the middle and reaches the largest magnitude on both sides', () => {
    const jitter: Panel[] = [{ title: 'VI', series: [{ name: 'DTable', colorIndex: 0, points: [[-10, 0.2], [40, 1]] }] }];
    const { container } = render(<PanelsChart panels={jitter} title="Jitter" xLabel="x" yLabel="y" width={600} step symmetricX yDomain={[0, 1]} />);
    const ticks = [...container.querySelectorAll('g.panel-plot text[y="17"]')].map((t) => Number((t.textContent ?? '').replace('−', '-')));
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks[0]).toBe(-(ticks.at(-1) ?? 0));
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(40);
    expect(ticks).toContain(0);
  });
});
