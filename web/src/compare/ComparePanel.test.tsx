import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ComparePanel } from './ComparePanel';
import { fakeResults } from './compareData.test';
import type { Comparison } from './useComparison';

afterEach(cleanup);

function comparison(over: Partial<Comparison> = {}): Comparison {
  return {
    runs: [
      { id: 1, label: 'AS', results: fakeResults('as_basic', [0.02, 0.06, 0.24, 0.48]) },
      { id: 2, label: 'IBA', results: fakeResults('iba', [0.1, 0.15, 0.25, 0.3]) },
      { id: 3, label: 'DTable', results: fakeResults('dtable', [0.25, 0.25, 0.25, 0.25]) },
    ],
    add: vi.fn(),
    remove: vi.fn(),
    rename: vi.fn(),
    clear: vi.fn(),
    group: { phase: 'idle' },
    runGroup: vi.fn(),
    cancelGroup: vi.fn(),
    ...over,
  };
}

describe('ComparePanel', () => {
  it('overlays every (run, class) curve, groups the bars and lists run × class numbers', () => {
    const c = comparison();
    const { container } = render(<ComparePanel comparison={c} onAddCurrent={null} onCompareGroup={vi.fn()} group="R1" busy={false} />);
    const legend = screen.getByTestId('compare-legend');
    expect(within(legend).getAllByTestId('compare-legend-run').map((li) => li.textContent)).toEqual(['AS', 'IBA', 'DTable']);
    expect(container.querySelectorAll('path.cdf-curve')).toHaveLength(12);
    expect(container.querySelectorAll('rect.tp-bar')).toHaveLength(12);
    const rows = screen.getByTestId('compare-table').querySelectorAll('tbody tr');
    expect(rows).toHaveLength(12);
    expect(rows[11]?.textContent).toContain('25.00 %');
    expect(screen.getByRole('button', { name: 'Add to comparison' })).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('button', { name: 'Remove run IBA' }));
    expect(c.remove).toHaveBeenCalledWith(2);
    fireEvent.change(screen.getByLabelText('Label of run 1'), { target: { value: 'Basic' } });
    expect(c.rename).toHaveBeenCalledWith(1, 'Basic');
    fireEvent.click(screen.getByRole('button', { name: 'Compare the R1 schedulers' }));
    expect(c.runGroup).not.toHaveBeenCalled(); // the panel calls onCompareGroup, which calls runGroup
  });

  it('shows progress and cancel while a group runs', () => {
    const c = comparison({ runs: [], group: { phase: 'running', index: 1, total: 3, title: 'R1: IBA', fraction: 0.5 } });
    render(<ComparePanel comparison={c} onAddCurrent={vi.fn()} onCompareGroup={vi.fn()} group="R1" busy={false} />);
    expect(screen.getByRole('status').textContent).toBe('Run 2 of 3: R1: IBA');
    expect((screen.getByLabelText('Comparison progress') as HTMLProgressElement).value).toBeCloseTo(0.5);
    expect(screen.getByRole('button', { name: 'Compare the R1 schedulers' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel comparison' }));
    expect(c.cancelGroup).toHaveBeenCalled();
  });
});
