import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import r2Json from '../../../engine/core/tests/data/network-r2.json';
import starterJson from '../../../public/presets/network-starter.json';
import type { EngineError, Scenario } from '../generated';
import { EditorEngineContext } from '../engine/editorEngine';
import { fakeEngine } from '../engine/fakeEngine';
import { FieldErrorsContext } from '../form/fieldErrors';
import {
  addClass,
  addEntry,
  isLinkLab,
  labOf,
  removeClass,
  setBufferBytes,
  setClassLoad,
  setLinkRate,
  setScheduler,
  tableOf,
} from '../shared/edit';
import { ScenarioEditor } from '../lab/ScenarioEditor';
import { defaultScenario } from '../state/scenario';
import { classLoad, topologyText } from './describe';
import { setTopologyKind } from './edit';

afterEach(cleanup);

const network = (): Scenario => structuredClone(r2Json) as Scenario;

/** A stand-in for the engine's validation: on a torus only dimension order routes, elsewhere only it is refused; trunks need a port. */
function fakeValidate() {
  return vi.fn(async (json: string): Promise<EngineError | null> => {
    const s = JSON.parse(json) as Scenario;
    if (s.model.kind !== 'network') return null;
    if (s.model.topology.kind === 'torus' && s.model.topology.trunk_ports < 1) {
      return { kind: 'invalid', errors: [{ path: 'model.topology.trunk_ports', message: 'must be at least 1' }] };
    }
    const torus = s.model.topology.kind === 'torus';
    const dor = s.model.routing?.kind === 'dimension_order';
    return torus === dor ? null : { kind: 'invalid', errors: [{ path: 'model.routing', message: 'does not fit' }] };
  });
}

/** The engine's answer to a kind switch, faked for FIFO (the only switch these tests make). */
const engine = fakeEngine({
  startingScheduler: async (r) =>
    r.kind === 'fifo' ? { status: 'done', config: { kind: 'fifo' } } : { status: 'crashed', message: `${r.kind}: not faked` },
});

/** The editor on a scenario kept in state, as the lab keeps it; `current()` reads the latest. */
function renderEditor(initial: Scenario, validate: ReturnType<typeof fakeValidate>, editorEngine = engine) {
  let latest = initial;
  function Harness() {
    const [scenario, setScenario] = useState(initial);
    latest = scenario;
    return (
      <EditorEngineContext.Provider value={editorEngine}>
        <ScenarioEditor scenario={scenario} onEdit={(f) => setScenario((s) => f(s))} validate={validate} />
      </EditorEngineContext.Provider>
    );
  }
  render(<Harness />);
  return { current: () => latest };
}

describe('network scenarios in the link lab', () => {
  it('tells a network from a link lab', () => {
    expect(isLinkLab(defaultScenario())).toBe(true);
    expect(isLinkLab(network())).toBe(false);
    expect(labOf(network())).toBeNull();
    expect(labOf(defaultScenario())?.classes.length).toBeGreaterThan(0);
  });

  it('link-lab edits leave a network unchanged instead of writing link-lab fields into it', () => {
    const n = network();
    for (const edit of [
      (s: Scenario) => setLinkRate(s, 10),
      (s: Scenario) => setBufferBytes(s, 1),
      (s: Scenario) => setScheduler(s, { kind: 'fifo' }),
      (s: Scenario) => addClass(s),
      (s: Scenario) => removeClass(s, 0),
      (s: Scenario) => addEntry(s),
      (s: Scenario) => setClassLoad(s, 0, 0.5),
    ]) {
      expect(edit(n)).toEqual(n);
    }
    expect(tableOf(n)).toEqual([]);
    // The same edits do change a link lab.
    expect(setLinkRate(defaultScenario(), 10)).not.toEqual(defaultScenario());
  });

  it('the editor edits a network: sections, the topology kind and size, the routing the engine accepts', async () => {
    const validate = fakeValidate();
    const { current } = renderEditor(structuredClone(starterJson) as Scenario, validate);
    const editor = screen.getByTestId('network-editor');
    expect([...editor.querySelectorAll('h3')].map((h) => h.textContent)).toEqual([
      'General',
      'Topology and routing',
      'Switch',
      'Lanes',
      'Links and interfaces',
      'Traffic classes',
      'Admission control',
      'Schedulers',
    ]);
    expect(editor.textContent).toMatch(/one switch with 8 ports, one end point each/);
    expect(screen.getByText('Multimedia network (R2) view').getAttribute('href')).toBe('#view=r2');
    // No link-lab editor.
    expect(screen.queryByLabelText('Scheduler kind')).toBeNull();

    fireEvent.change(screen.getByLabelText('Topology'), { target: { value: 'torus' } });
    expect(current().model).toMatchObject({ topology: { kind: 'torus', dims: [3, 3], trunk_ports: 1, end_points_per_switch: 2 } });
    fireEvent.change(screen.getByLabelText('Dimensions'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Ring size, dimension 3'), { target: { value: '4' } });
    fireEvent.change(screen.getByLabelText('Trunk ports'), { target: { value: '2' } });
    expect(current().model).toMatchObject({ topology: { kind: 'torus', dims: [3, 3, 4], trunk_ports: 2 } });
    expect(screen.getByTestId('topology-text').textContent).toMatch(/3x3x4 torus, trunks of 2 ports, 2 end points per switch: 36 switches, 72 end points/);

    // The routing options follow the engine's answers for this topology (the fake accepts only dimension order on a torus).
    await waitFor(() => expect(screen.getByTestId('routing-hint').textContent).toBe('The engine accepts Dimension order for this topology.'));
    const routing = screen.getByLabelText('Routing') as HTMLSelectElement;
    expect([...routing.options].map((o) => o.textContent)).toEqual([
      'up*/down* — not for this network',
      'Valiant — not for this network',
      'Dimension order',
      'Least occupied (per connection) — not for this network',
    ]);
    fireEvent.change(routing, { target: { value: 'dimension_order' } });
    expect(current().model).toMatchObject({ routing: { kind: 'dimension_order' } });
    // A topology the engine refuses: no routing is judged until it is fixed.
    fireEvent.change(screen.getByLabelText('Trunk ports'), { target: { value: '0' } });
    await waitFor(() => expect(screen.getByTestId('routing-hint').textContent).toBe('Which routings fit shows once the topology is valid.'));
    expect([...routing.options].map((o) => o.textContent)).toEqual(['up*/down*', 'Valiant', 'Dimension order', 'Least occupied (per connection)']);
  }, 30_000);

  it('lanes: a lane map with a field per entry, shared credits with their limits, messages by table', () => {
    const errors = new Map([['model.lanes.map.sl2vl', ['must give an entry for each of the 2 classes (SLs) (got 1)']]]);
    let latest: Scenario = structuredClone(starterJson) as Scenario;
    function Harness() {
      const [scenario, setScenario] = useState(latest);
      latest = scenario;
      return (
        <FieldErrorsContext.Provider value={errors}>
          <ScenarioEditor scenario={scenario} onEdit={(f) => setScenario((s) => f(s))} validate={fakeValidate()} />
        </FieldErrorsContext.Provider>
      );
    }
    render(<Harness />);
    fireEvent.change(screen.getByLabelText('Lane map'), { target: { value: 'sl2vl' } });
    fireEvent.change(screen.getByLabelText('VL of BE (SL 1)'), { target: { value: '0' } });
    expect(latest.model).toMatchObject({ lanes: { map: { kind: 'sl2vl', sl2vl: [0, 0] } } });
    expect(screen.getByRole('group', { name: 'SL2VL' }).textContent).toMatch(/must give an entry for each of the 2 classes/);
    fireEvent.change(screen.getByLabelText('Credits of a switch input buffer'), { target: { value: 'shared' } });
    fireEvent.change(screen.getByLabelText('Most one lane may hold (B)'), { target: { value: '8192' } });
    expect(latest.model).toMatchObject({ lanes: { credits: { kind: 'shared', min_bytes: 2048, max_bytes: 8192 } } });
  }, 30_000);

  it('the switch model select offers the InfiniBand-like switch with its stage cycles', () => {
    const { current } = renderEditor(network(), fakeValidate());
    fireEvent.change(screen.getByLabelText('Switch model'), { target: { value: 'infiniband' } });
    expect(current().model).toMatchObject({
      switch: { kind: 'infiniband', speedup: 1, input_buffer_bytes: 114_688, output_buffer_bytes: 114_688 },
    });
    expect(screen.queryByLabelText('Header crossing (ns)')).toBeNull();
    fireEvent.change(screen.getByLabelText('Routing unit (cycles)'), { target: { value: '3' } });
    expect(current().model).toMatchObject({ switch: { kind: 'infiniband', cycles: { routing: 3, crossbar: 1 } } });
    expect(screen.getByLabelText('Input buffer per port, shared by its VLs (B)')).toBeTruthy();
  }, 30_000);

  it('the switch model select offers the Omni-Path-like switch with its central buffer', () => {
    const { current } = renderEditor(network(), fakeValidate());
    fireEvent.change(screen.getByLabelText('Switch model'), { target: { value: 'omnipath' } });
    expect(current().model).toMatchObject({
      switch: { kind: 'omnipath', speedup: 3, input_buffer_bytes: 114_688, central_buffer_bytes: 229_376 },
    });
    expect(screen.queryByLabelText('Header crossing (ns)')).toBeNull();
    fireEvent.change(screen.getByLabelText('Central crossbar buffer per MPort (B)'), { target: { value: '131072' } });
    expect(current().model).toMatchObject({ switch: { kind: 'omnipath', central_buffer_bytes: 131_072 } });
    expect(screen.getByLabelText('Output buffer per port, shared by its VLs (B)')).toBeTruthy();
  }, 30_000);

  it('a problem the engine names is shown next to its field, and the field says it is invalid', () => {
    const errors = new Map([['model.topology.trunk_ports', ['must be at least 1 port per trunk (got 0)']]]);
    const torus = setTopologyKind(network(), 'torus');
    render(
      <FieldErrorsContext.Provider value={errors}>
        <ScenarioEditor scenario={torus} onEdit={vi.fn()} validate={fakeValidate()} />
      </FieldErrorsContext.Provider>,
    );
    const field = screen.getByLabelText('Trunk ports');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(field.getAttribute('aria-describedby')?.split(' ')[0] ?? '');
    expect(message?.textContent).toBe('must be at least 1 port per trunk (got 0)');
    expect(field.closest('.field')?.contains(message ?? null)).toBe(true);
  }, 30_000);

  it('classes are added with their place in both schedulers and removed by their button', async () => {
    const { current } = renderEditor(network(), fakeValidate());
    fireEvent.click(screen.getByText('Add class'));
    const net = current().model;
    if (net.kind !== 'network') throw new Error('network');
    expect(net.classes).toHaveLength(8);
    expect(net.classes[7]?.name).toBe('C7');
    expect(net.switch_scheduler.kind === 'drr' && net.switch_scheduler.quanta_bytes).toHaveLength(8);
    fireEvent.click(screen.getByLabelText('Remove class 0 NC'));
    const after = current().model;
    if (after.kind !== 'network') throw new Error('network');
    expect(after.classes.map((c) => c.name)).toEqual(['VO', 'VI', 'CL', 'EE', 'BE', 'BK', 'C7']);
    // Admission control reserves for the connection classes only.
    expect(screen.getByLabelText('VO may reserve')).toBeTruthy();
    expect(screen.queryByLabelText('BE may reserve')).toBeNull();
    fireEvent.change(screen.getByLabelText('VI may reserve'), { target: { value: '0.4' } });
    expect(current().model).toMatchObject({ admission: { reserved: [0.046875, 0.4, 0.203125, 0, 0, 0, 0] } });
    // The kind switch waits for the engine's starting configuration.
    fireEvent.change(screen.getByLabelText('Switch output ports: scheduler'), { target: { value: 'fifo' } });
    await waitFor(() => expect(current().model).toMatchObject({ switch_scheduler: { kind: 'fifo' } }));
  }, 30_000);

  it('a scheduler card shows no shares of the kind switched from while the new kind’s are awaited', async () => {
    const weighing = fakeEngine({
      startingScheduler: async () => ({ status: 'done', config: { kind: 'fifo' } }),
      // FIFO's answer never comes: the card must not keep showing the previous kind's shares.
      schedulerWeights: (r) =>
        r.scheduler.kind === 'fifo'
          ? new Promise<never>(() => undefined)
          : Promise.resolve({ status: 'done', weights: r.classes.map(() => 1), shares: r.classes.map(() => 1 / r.classes.length) }),
    });
    const { current } = renderEditor(network(), fakeValidate(), weighing);
    await waitFor(() => expect(screen.getByTestId('switch_scheduler-shares').textContent).toMatch(/^Shares: NC 14\.3 %/));
    fireEvent.change(screen.getByLabelText('Switch output ports: scheduler'), { target: { value: 'fifo' } });
    await waitFor(() => expect(current().model).toMatchObject({ switch_scheduler: { kind: 'fifo' } }));
    expect(screen.queryByTestId('switch_scheduler-shares')).toBeNull();
    // It says so, as the lab does.
    expect(screen.getByTestId('switch_scheduler-shares-pending').textContent).toBe('Asking the engine for the shares…');
  });

  it('per-SL MTUs and the flit size: blank leaves the field out', () => {
    const { current } = renderEditor(network(), fakeValidate());
    const mtu = () => screen.getAllByLabelText('SL MTU (B)')[4]!;
    fireEvent.change(mtu(), { target: { value: '256' } });
    const net = () => {
      const m = current().model;
      if (m.kind !== 'network') throw new Error('network');
      return m;
    };
    expect(net().classes[4]?.mtu_bytes).toBe(256);
    expect(net().classes[3]).not.toHaveProperty('mtu_bytes');
    fireEvent.change(mtu(), { target: { value: '' } });
    expect(net().classes[4]).not.toHaveProperty('mtu_bytes');
    fireEvent.change(screen.getByLabelText('Flit size (B)'), { target: { value: '64' } });
    expect(net().flit_bytes).toBe(64);
    fireEvent.change(screen.getByLabelText('Flit size (B)'), { target: { value: '' } });
    expect(net()).not.toHaveProperty('flit_bytes');
  }, 30_000);

  it('describes topologies and reads class loads tolerantly', () => {
    const n = network();
    if (n.model.kind !== 'network') throw new Error('network');
    expect(topologyText({ ...n.model, topology: { kind: 'single_switch', ports: 8 } })).toMatch(/one switch with 8 ports/);
    expect(topologyText({ ...n.model, topology: { kind: 'tree', k: 4, n: 3 } })).toMatch(/4-ary 3-tree, 64 end points, 8-port/);
    expect(
      topologyText({ ...n.model, topology: { kind: 'torus', dims: [8, 8], trunk_ports: 10, end_points_per_switch: 8 } }),
    ).toMatch(/8x8 torus, trunks of 10 ports, 8 end points per switch: 64 switches, 512 end points/);
    expect(topologyText({ ...n.model, topology: { kind: 'link' } })).toMatch(/two end points/);
    expect(classLoad(n.model.classes[0]!)).toBe(0.015);
  });
});
