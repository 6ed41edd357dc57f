import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EditorEngineContext, type EditorEngine } from '../engine/editorEngine';
import { fakeEngine } from '../engine/fakeEngine';
import type { Engine, StartingOutcome } from '../engine/protocol';
import type { Scenario, SchedulerConfig, StartingRequest } from '../generated';
import { STARTING_4 } from '../generated/mathsCases';
import { defaultScenario } from '../state/scenario';
import { isLinkLab, type LinkLabScenario } from '../shared/edit';
import { groupByPath } from '../shared/errors';
import { FieldErrorsContext } from '../form/fieldErrors';
import { SchedulerEditor } from './SchedulerEditor';

type ServiceListFn = Engine['serviceList'];
type StartingFn = Engine['startingScheduler'];

/** The engine's starting configuration of `kind` (for four classes, as the default scenario has). */
const startOf = (kind: string): SchedulerConfig => STARTING_4.find((c) => c.kind === kind) ?? { kind: 'fifo' };
/** A starting-scheduler call answering the engine's fixture at once. */
const answering: StartingFn = async (request) => ({ status: 'done', config: startOf(request.kind) });

afterEach(cleanup);

let current: LinkLabScenario | null = null;

interface HarnessProps {
  errors?: { path: string; message: string }[];
  serviceList?: ServiceListFn;
  startingScheduler?: StartingFn;
  /** No engine at all. */
  noEngine?: boolean;
}

function Harness({ errors = [], serviceList, startingScheduler = answering, noEngine = false }: HarnessProps) {
  const [engine] = useState<EditorEngine>(() => fakeEngine({ startingScheduler, ...(serviceList ? { serviceList } : {}) }));
  const [s, setS] = useState<Scenario>(defaultScenario);
  useEffect(() => {
    current = isLinkLab(s) ? s : null;
  }, [s]);
  return (
    <FieldErrorsContext.Provider value={groupByPath(errors)}>
      <EditorEngineContext.Provider value={noEngine ? null : engine}>
        {isLinkLab(s) ? <SchedulerEditor scenario={s} onEdit={(f) => setS((x) => (isLinkLab(x) ? f(x) : x))} /> : null}
      </EditorEngineContext.Provider>
    </FieldErrorsContext.Provider>
  );
}

describe('SchedulerEditor', () => {
  it('switches kinds with the engine’s starting configuration, and restores a kind switched back to', async () => {
    const asked: StartingRequest[] = [];
    render(<Harness startingScheduler={async (r) => (asked.push(r), answering(r))} />);
    const kind = screen.getByLabelText('Scheduler kind');
    const before = current?.model;
    await act(async () => {
      fireEvent.change(kind, { target: { value: 'drr' } });
    });
    // The engine was asked about this port: the scheduler now, the classes, the link rate.
    expect(asked).toEqual([{ kind: 'drr', from: before?.scheduler, classes: before?.classes, rate_gbps: before?.link.rate_gbps }]);
    expect(current?.model.scheduler).toEqual(startOf('drr'));
    fireEvent.change(screen.getByLabelText(/Quantum of class 1/), { target: { value: '4096' } });
    const edited = current?.model.scheduler;
    expect(edited?.kind === 'drr' && edited.quanta_bytes[1]).toBe(4096);

    await act(async () => {
      fireEvent.change(kind, { target: { value: 'iba' } });
    });
    expect(screen.getByLabelText('High limit (4096-byte units)')).toBeTruthy();
    expect(screen.getAllByLabelText(/^Low entry \d+ weight$/)).toHaveLength(4);

    // Back to kinds seen before: restored without asking the engine.
    fireEvent.change(kind, { target: { value: 'dtable' } });
    expect(current?.model.scheduler).toEqual(defaultScenario().model.scheduler);
    fireEvent.change(kind, { target: { value: 'drr' } });
    expect(current?.model.scheduler).toEqual(edited);
    expect(asked.map((r) => r.kind)).toEqual(['drr', 'iba']);

    await act(async () => {
      fireEvent.change(kind, { target: { value: 'fifo' } });
    });
    expect(screen.getByTestId('no-shares')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Bandwidth share per class' })).toBeNull();
  });

  it('shows a switch as pending, keeps focus on the kind, and lands only the latest answer', async () => {
    const waiting = new Map<string, (o: StartingOutcome) => void>();
    const slow: StartingFn = (r) => new Promise((resolve) => waiting.set(r.kind, resolve));
    render(<Harness startingScheduler={slow} />);
    const kind = screen.getByLabelText('Scheduler kind') as HTMLSelectElement;
    kind.focus();
    fireEvent.change(kind, { target: { value: 'wfq' } });
    // Pending: the choice shows, the scheduler is unchanged, the status says why.
    expect(kind.value).toBe('wfq');
    expect(kind.getAttribute('aria-busy')).toBe('true');
    expect(current?.model.scheduler.kind).toBe('dtable');
    expect(screen.getByTestId('kind-switch-status').textContent).toContain('Asking the engine for the starting WFQ settings');
    // The user switches again before the engine answers: the first answer is dropped.
    fireEvent.change(kind, { target: { value: 'drr' } });
    await act(async () => {
      waiting.get('wfq')?.({ status: 'done', config: startOf('wfq') });
    });
    expect(current?.model.scheduler.kind).toBe('dtable');
    expect(kind.value).toBe('drr');
    await act(async () => {
      waiting.get('drr')?.({ status: 'done', config: startOf('drr') });
    });
    expect(current?.model.scheduler).toEqual(startOf('drr'));
    expect(kind.getAttribute('aria-busy')).toBe('false');
    expect(screen.getByTestId('kind-switch-status').textContent).toBe('');
    expect(document.activeElement).toBe(kind);
  });

  it('a switch undone while pending is dropped; a refusal is shown and the kind stays', async () => {
    const waiting: ((o: StartingOutcome) => void)[] = [];
    render(<Harness startingScheduler={() => new Promise((resolve) => waiting.push(resolve))} />);
    const kind = screen.getByLabelText('Scheduler kind') as HTMLSelectElement;
    fireEvent.change(kind, { target: { value: 'wfq' } });
    // Back to the current kind while pending: nothing is pending any more.
    fireEvent.change(kind, { target: { value: 'dtable' } });
    await act(async () => {
      waiting[0]?.({ status: 'done', config: startOf('wfq') });
    });
    expect(current?.model.scheduler.kind).toBe('dtable');
    expect(kind.value).toBe('dtable');
    fireEvent.change(kind, { target: { value: 'edf' } });
    await act(async () => {
      waiting[1]?.({ status: 'invalid', error: { kind: 'invalid', errors: [{ path: 'classes', message: 'must list 1 to 64 classes (now 0)' }] } });
    });
    expect(current?.model.scheduler.kind).toBe('dtable');
    expect(kind.value).toBe('dtable');
    expect(screen.getByTestId('kind-switch-status').textContent).toMatch(/could not switch the kind: .*classes: must list 1 to 64 classes/);
  });

  it('without an engine the kind cannot be switched, and says so', () => {
    render(<Harness noEngine />);
    fireEvent.change(screen.getByLabelText('Scheduler kind'), { target: { value: 'drr' } });
    expect(current?.model.scheduler.kind).toBe('dtable');
    expect(screen.getByTestId('kind-switch-status').textContent).toContain('The engine is not available');
  });

  it('shows engine errors next to each per-class field', async () => {
    const { rerender } = render(<Harness />);
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Scheduler kind'), { target: { value: 'edf' } });
    });
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

  it('AS basic: fill needs a legal table size', async () => {
    render(<Harness serviceList={vi.fn<ServiceListFn>()} />);
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Scheduler kind'), { target: { value: 'as_basic' } });
    });
    expect(screen.getAllByRole('combobox', { name: /^AS entry \d+$/ })).toHaveLength(32);
    fireEvent.change(screen.getByLabelText(/Entries of class 0/), { target: { value: '1' } });
    expect(screen.getByText(/An AS basic table holds 32, 64/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fill the table' })).toHaveProperty('disabled', true);
  });
});
