import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupedBarChart } from './GroupedBarChart';
import { svgSnapshot } from './svgSnapshot';

afterEach(cleanup);

const groups = [
  { name: '64 B', colorIndex: 0, values: [0.02, 0.19, 0.25] },
  { name: '2048 B', colorIndex: 3, values: [0.6, null, 0.25] },
];
const labels = ['R1: AS basic', 'R1: InfiniBand weighted tables with a long name', 'R1: DTable'];

describe('GroupedBarChart', () => {
  it('draws a group per class, a patterned bar per run, a swatch per group and the pattern legend (snapshot)', () => {
    const { container } = render(
      <GroupedBarChart groups={groups} seriesLabels={labels} yLabel="Throughput" title="Throughput per class" width={480} height={260} />,
    );
    // No bar for a missing value; every bar names its group, run and value.
    expect(container.querySelectorAll('rect.tp-bar')).toHaveLength(5);
    expect(container.querySelector('rect.tp-bar title')?.textContent).toBe('64 B, R1: AS basic: 0.02');
    // The cut legend text keeps the whole name as a tooltip.
    expect([...container.querySelectorAll('.bar-legend-item title')].map((t) => t.textContent)).toEqual([labels[1]]);
    // Pattern ids carry React's useId: the same in every render of this test, but named here.
    const svg = svgSnapshot(container).replace(/bars[A-Za-z0-9_]+(?=-)/g, 'bars');
    expect(svg).toMatchSnapshot();
  });
});
