import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EditorEngineContext, useSchedulerShares, type EditorEngine } from '../engine/editorEngine';
import { fakeEngine } from '../engine/fakeEngine';
import type { Engine, StartingOutcome, WeightsOutcome } from '../engine/protocol';
import type { Scenario, SchedulerConfig, StartingRequest, WeightsRequest } from '../generated';
import { STARTING_4, WEIGHTS_CASES } from '../generated/mathsCases';
import { defaultScenario } from '../state/scenario';
import { isLinkLab, type LinkLabScenario } from '../shared/edit';
import { groupByPath } from '../shared/errors';
import { FieldErrorsContext } from '../form/fieldErrors';
import { SchedulerEditor } from './SchedulerEditor';
import type { LabEdit } from './types';

type ServiceListFn = Engine['serviceList'];
type StartingFn = Engine['startingScheduler'];
type WeightsFn = Engine['schedulerWeights'];

/** The engine's starting configuration of `kind` (for four classes, as the default scenario has). */
const startOf = (kind: string): SchedulerConfig => STARTING_4.find((c) => c.kind === kind) ?? { kind: 'fifo' };
/** A starting-scheduler call answering the engine's fixture at once. */
const answering: StartingFn = async (request) => ({ status: 'done', config: startOf(request.kind) });

/**
 * The engine's answer to a weights request where the generated fixtures have one
 * (`WEIGHTS_CASES`); else none for the kinds without weights and equal shares for the
 * others (a stand-in: these tests look at the editor, not at the engine's formulas).
 */
const weighing: WeightsFn = async (request: WeightsRequest): Promise<WeightsOutcome> => {
  const known = WEIGHTS_CASES.find((c) => JSON.stringify(c.request) === JSON.stringify(request));
  if (known) return { status: 'done', ...known.answer };
  const n = request.classes.length;
  return ['fifo', 'edf', 'strict_priority'].includes(request.scheduler.kind)
    ? { status: 'done', weights: null, shares: null }
    : { status: 'done', weights: new Array<number>(n).fill(1), shares: new Array<number>(n).fill(1 / n) };
};

afterEach(cleanup);

let current: LinkLabScenario | null = null;

interface HarnessProps {
  errors?: { path: string; message: string }[];
  serviceList?: ServiceListFn;
  startingScheduler?: StartingFn;
  schedulerWeights?: WeightsFn;
  /** The scenario shown first (the default scenario unless given). */
  initial?: Scenario;
  /** No engine at all. */
  noEngine?: boolean;
}

function Harness({ errors = [], serviceList, startingScheduler = answering, schedulerWeights = weighing, initial, noEngine = false }: HarnessProps) {
  const [engine] = useState<EditorEngine>(() =>
    fakeEngine({ startingScheduler, schedulerWeights, ...(serviceList ? { serviceList } : {}) }),
  );
  const [s, setS] = useState<Scenario>(() => initial ?? defaultScenario());
  useEffect(() => {
    current = isLinkLab(s) ? s : null;
  }, [s]);
  return (
    <FieldErrorsContext.Provider value={groupByPath(errors)}>
      <EditorEngineContext.Provider value={noEngine ? null : engine}>
        {isLinkLab(s) ? <Editor scenario={s} onEdit={(f) => setS((x) => (isLinkLab(x) ? f(x) : x))} /> : null}
      </EditorEngineContext.Provider>
    </FieldErrorsContext.Provider>
  );
}

/** The scheduler editor with the engine's shares, as the scenario editor gives them. */
function Editor({ scenario, onEdit }: { scenario: LinkLabScenario; onEdit: LabEdit }) {
  const shares = useSchedulerShares(scenario.model.scheduler, scenario.model.classes);
  return <SchedulerEditor scenario={scenario} onEdit={onEdit} shares={shares} />;
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
    await waitFor(() => expect(screen.getByTestId('no-shares')).toBeTruthy());
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

  it('shows the engine’s shares (a Pareto class’s among them), the previous ones while awaited, and a refusal', async () => {
    const fixture = WEIGHTS_CASES[0];
    if (!fixture) throw new Error('fixtures');
    const d = defaultScenario();
    if (!isLinkLab(d)) throw new Error('link lab');
    const initial: Scenario = { ...d, model: { ...d.model, classes: [...fixture.request.classes], scheduler: fixture.request.scheduler } };
    const waiting: ((o: WeightsOutcome) => void)[] = [];
    let slow = false;
    const weights: WeightsFn = (r) => (slow ? new Promise((resolve) => waiting.push(resolve)) : weighing(r));
    render(<Harness initial={initial} schedulerWeights={weights} />);
    const table = await screen.findByRole('table', { name: 'Bandwidth share per class' });
    const shareOf = (i: number) => table.querySelectorAll('tbody tr')[i]?.querySelector('.share-cell')?.textContent;
    const expected = (fixture.answer.shares ?? []).map((x) => `${(x * 100).toFixed(1)} %`);
    await waitFor(() => expect(shareOf(0)).toBe(expected[0]));
    expect([shareOf(1), shareOf(2)]).toEqual([expected[1], expected[2]]);
    expect(table.getAttribute('aria-busy')).toBe('false');

    // An entry moves to class 2: the engine is asked; meanwhile the shares shown are the previous ones, marked busy.
    slow = true;
    fireEvent.change(screen.getByRole('combobox', { name: 'AS entry 1' }), { target: { value: '2' } });
    expect(table.getAttribute('aria-busy')).toBe('true');
    expect(shareOf(0)).toBe(expected[0]);
    await waitFor(() => expect(waiting).toHaveLength(1));
    await act(async () => waiting[0]?.({ status: 'done', weights: [1, 1, 2], shares: [0.25, 0.25, 0.5] }));
    expect([shareOf(0), shareOf(1), shareOf(2)]).toEqual(['25.0 %', '25.0 %', '50.0 %']);
    expect(table.getAttribute('aria-busy')).toBe('false');

    // A refusal: no shares, the engine's reason instead.
    fireEvent.change(screen.getByRole('combobox', { name: 'AS entry 1' }), { target: { value: '1' } });
    await waitFor(() => expect(waiting).toHaveLength(2));
    await act(async () =>
      waiting[1]?.({ status: 'invalid', error: { kind: 'invalid', errors: [{ path: 'scheduler.table[1]', message: 'invalid value' }] } }),
    );
    expect(screen.queryByRole('table', { name: 'Bandwidth share per class' })).toBeNull();
    expect(screen.getByTestId('shares-unavailable').textContent).toMatch(/^Shares unavailable: .*scheduler\.table\[1\]/);
  });

  it('after a kind switch, shows no shares of the kind switched from while the new kind’s are awaited', async () => {
    const waiting: ((o: WeightsOutcome) => void)[] = [];
    let slow = false;
    const weights: WeightsFn = (r) => (slow ? new Promise((resolve) => waiting.push(resolve)) : weighing(r));
    render(<Harness schedulerWeights={weights} />);
    const table = await screen.findByRole('table', { name: 'Bandwidth share per class' });
    await waitFor(() => expect(table.getAttribute('aria-busy')).toBe('false'));
    slow = true;
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Scheduler kind'), { target: { value: 'as_basic' } });
    });
    await waitFor(() => expect(waiting).toHaveLength(1));
    // The DTable's shares beside the AS table's entries would mislead: the editor waits.
    expect(screen.queryByRole('table', { name: 'Bandwidth share per class' })).toBeNull();
    expect(screen.getByTestId('shares-pending').textContent).toMatch(/Asking the engine for the shares/);
    await act(async () => waiting[0]?.({ status: 'done', weights: [1, 1, 1, 1], shares: [0.25, 0.25, 0.25, 0.25] }));
    const asTable = screen.getByRole('table', { name: 'Bandwidth share per class' });
    expect(asTable.querySelector('caption')?.textContent).toMatch(/mean packet size/);
    expect(asTable.getAttribute('aria-busy')).toBe('false');
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
