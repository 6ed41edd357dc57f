import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { svgSnapshot } from '../svgSnapshot';
import { GridLines, Legend, legendPositions, lineSwatch, patternSwatch, XAxis, YAxis } from '.';
import { bandPath, cdfPath, linePath } from './paths';

afterEach(cleanup);

const id = (v: number) => v;

describe('marks', () => {
  it('legend rows: row-major in columns, a row with a note 14 px taller', () => {
    const items = [{}, { note: '(no packets)' }, {}, {}];
    expect(legendPositions(items, 1, 0, 20)).toEqual([[0, 0], [0, 20], [0, 54], [0, 74]]);
    expect(legendPositions(items, 2, 170, 22)).toEqual([[0, 0], [170, 0], [0, 36], [170, 36]]);
  });

  it('paths: a line, a step curve, a CDF from fraction 0, a band', () => {
    const pts = [[0, 1], [10, 3.3333]] as const;
    expect(linePath(pts, id, id)).toBe('M0,1L10,3.33');
    expect(linePath(pts, id, id, true)).toBe('M0,1L10,1L10,3.33');
    expect(cdfPath([[5, 0.5], [9, 1]], id, id)).toBe('M5,0L5,0L5,0.5L9,0.5L9,1');
    expect(cdfPath([], id, id)).toBe('');
    expect(bandPath([[0, 1, 2], [4, 1, 3]], id, id)).toBe('M0,2L4,3L4,1L0,1Z');
  });

  it('axes, grid and legend swatches (snapshot)', () => {
    const { container } = render(
      <svg>
        <GridLines at={[10, 20.123]} width={100} className="grid" />
        <XAxis className="x" y={50} length={100} tickSize={6} title="Latency (µs)" titleOffset={38}
          ticks={[{ at: 0, label: '1' }, { at: 30.1, label: null }, { at: 100, label: '10' }]} />
        <YAxis ticks={[{ at: 50, label: '0' }, { at: 0, label: '1' }]} length={50} title="Fraction" titleOffset={42} />
        <Legend x={120} y={10} items={[
          { key: 'a', text: 'Voice', swatch: lineSwatch('#0072B2') },
          { key: 'b', text: 'Bulk…', full: 'Bulk traffic', swatch: lineSwatch('#E69F00', '4 2', 1), note: '(no packets)' },
          { key: 'c', text: 'Run 2', swatch: patternSwatch(1, 'p1') },
        ]} />
      </svg>,
    );
    expect(svgSnapshot(container)).toMatchSnapshot();
  });
});
