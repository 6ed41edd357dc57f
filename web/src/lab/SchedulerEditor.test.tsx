import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Scenario } from '../generated';
import { defaultScenario } from '../state/scenario';
import { isLinkLab, type LinkLabScenario } from '../shared/edit';
import { groupByPath } from '../shared/errors';
import { FieldErrorsContext } from '../form/fieldErrors';
import { SchedulerEditor } from './SchedulerEditor';
import { ServiceListContext, type ServiceListFn } from './serviceList';

afterEach(cleanup);

let current: LinkLabScenario | null = null;

function Harness({ errors = [], serviceList = null }: { errors?: { path: string; message: string }[]; serviceList?: ServiceListFn | null }) {
  const [s, setS] = useState<Scenario>(defaultScenario);
  useEffect(() => {
    current = isLinkLab(s) ? s : null;
  }, [s]);
  return (
    <FieldErrorsContext.Provider value={groupByPath(errors)}>
      <ServiceListContext.Provider value={serviceList}>
        {isLinkLab(s) ? <SchedulerEditor scenario={s} onEdit={(f) => setS((x) => (isLinkLab(x) ? f(x) : x))} /> : null}
      </ServiceListContext.Provider>
    </FieldErrorsContext.Provider>
  );
}

describe('SchedulerEditor', () => {
  it('switches kinds, converting the configuration, and restores a kind switched back to', () => {
    render(<Harness />);
    const kind = screen.getByLabelText('Scheduler kind');
    fireEvent.change(kind, { target: { value: 'drr' } });
    expect(current?.model.scheduler).toEqual({ kind: 'drr', quanta_bytes: [1024, 2560, 2048, 2048] });
    expect((screen.getByLabelText(/Quantum of class 1/) as HTMLInputElement).value).toBe('2560');
    fireEvent.change(screen.getByLabelText(/Quantum of class 1/), { target: { value: '4096' } });
    expect(current?.model.scheduler).toEqual({ kind: 'drr', quanta_bytes: [1024, 4096, 2048, 2048] });

    fireEvent.change(kind, { target: { value: 'iba' } });
    expect(screen.getByLabelText('High limit (4096-byte units)')).toBeTruthy();
    // From DRR (no table): one low entry per class, weights in proportion to the quanta.
    expect(screen.getAllByLabelText(/^Low entry \d+ weight$/)).toHaveLength(4);

    fireEvent.change(kind, { target: { value: 'dtable' } });
    expect(current?.model.scheduler).toEqual(defaultScenario().model.scheduler);
    fireEvent.change(kind, { target: { value: 'drr' } });
    expect(current?.model.scheduler).toEqual({ kind: 'drr', quanta_bytes: [1024, 4096, 2048, 2048] });

    fireEvent.change(kind, { target: { value: 'fifo' } });
    expect(screen.getByTestId('no-shares')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Bandwidth share per class' })).toBeNull();
  });

  it('shows engine errors next to each per-class field', () => {
    const { rerender } = render(<Harness />);
    fireEvent.change(screen.getByLabelText('Scheduler kind'), { target: { value: 'edf' } });
    rerender(<Harness errors={[{ path: 'model.scheduler.deadlines_ns[2]', message: 'must be between 1 and 1000000000000 ns (got 0)' }]} />);
    const input = screen.getByLabelText(/Deadline of class 2/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = input.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy.split(' ')[0] ?? '')?.textContent).toContain('must be between 1 and');
  });

  it('fills the table from weights with the engine’s service list', async () => {
    const serviceList = vi.fn<ServiceListFn>(async (_kind, weights) => ({
      status: 'done',
      list: weights.flatMap((w, i) => new Array<number>(w).fill(i)),
    }));
    render(<Harness serviceList={serviceList} />);
    fireEvent.change(screen.getByLabelText(/Entries of class 0/), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText(/Entries of class 1/), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText(/Weight of every entry/), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('Interleaving'), { target: { value: 'uniform' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Fill the table' }));
    });
    expect(serviceList).toHaveBeenCalledWith('uniform', [1, 3, 2, 2]);
    await waitFor(() => expect(screen.getByText('Filled 8 entries.')).toBeTruthy());
    const sch = current?.model.scheduler;
    expect(sch?.kind === 'dtable' ? sch.table.map((e) => [e.class, e.weight]) : null).toEqual([
      [0, 20], [1, 20], [1, 20], [1, 20], [2, 20], [2, 20], [3, 20], [3, 20],
    ]);
  });

  it('AS basic: fill needs a legal table size', () => {
    render(<Harness serviceList={vi.fn<ServiceListFn>()} />);
    fireEvent.change(screen.getByLabelText('Scheduler kind'), { target: { value: 'as_basic' } });
    expect(screen.getAllByRole('combobox', { name: /^AS entry \d+$/ })).toHaveLength(32);
    fireEvent.change(screen.getByLabelText(/Entries of class 0/), { target: { value: '1' } });
    expect(screen.getByText(/An AS basic table holds 32, 64/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fill the table' })).toHaveProperty('disabled', true);
  });
});
