import { describe, expect, it } from 'vitest';
import r2Json from '../../../engine/core/tests/data/network-r2.json';
import type { NetworkConfig, Scenario } from '../generated';
import { defaultScenario } from '../state/scenario';
import {
  addNetworkClass,
  isConnectionClass,
  removeNetworkClass,
  setAdmission,
  setAdmissionCap,
  setReserved,
  setDestinations,
  setGenerator,
  setNetworkPerClass,
  networkSchedulerRequest,
  setNetworkScheduler,
  setTopologyKind,
  setTorusDim,
  setTorusRank,
  sizeOfKind,
} from './edit';
import { editNetwork } from './networkScenario';

const network = (): Scenario => structuredClone(r2Json) as Scenario;
const net = (s: Scenario): NetworkConfig => {
  if (s.model.kind !== 'network') throw new Error('not a network');
  return s.model;
};

describe('network edits', () => {
  it('leave a link lab and their input unchanged', () => {
    const lab = defaultScenario();
    expect(editNetwork(lab, (n) => ({ ...n, classes: [] }))).toBe(lab);
    const before = network();
    const copy = structuredClone(before);
    addNetworkClass(before);
    setTopologyKind(before, 'torus');
    expect(before).toEqual(copy);
  });

  it('a new class gets a place in both schedulers and in admission control; removing one renumbers', () => {
    const added = addNetworkClass(network());
    const n = net(added);
    expect(n.classes).toHaveLength(8);
    expect(n.admission?.reserved).toHaveLength(8);
    expect(n.admission?.reserved[7]).toBe(0);
    const drr = n.interface_scheduler;
    expect(drr.kind === 'drr' && drr.quanta_bytes[7]).toBe(1024);
    // DTable entries of later classes move down one when a class is removed.
    let s = setNetworkScheduler(added, 'switch_scheduler', {
      kind: 'dtable',
      table: Array.from({ length: 8 }, (_, i) => ({ class: i, weight: 16 })),
    });
    const table = (x: Scenario) => {
      const sw = net(x).switch_scheduler;
      return sw.kind === 'dtable' ? sw.table : [];
    };
    expect(new Set(table(s).map((e) => e.class))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7]));
    s = removeNetworkClass(s, 2);
    expect(net(s).classes.map((c) => c.name)).toEqual(['NC', 'VO', 'CL', 'EE', 'BE', 'BK', 'C7']);
    expect(new Set(table(s).map((e) => e.class))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
    expect(net(s).admission?.reserved).toHaveLength(7);
    const quanta = net(s).interface_scheduler;
    expect(quanta.kind === 'drr' && quanta.quanta_bytes).toHaveLength(7);
  });

  it('topologies switch kind to a starting size; a torus gains and loses dimensions', () => {
    let s = setTopologyKind(network(), 'tree');
    expect(net(s).topology).toEqual({ kind: 'tree', k: 2, n: 3 });
    s = setTopologyKind(s, 'torus');
    s = setTorusRank(s, 3);
    s = setTorusDim(s, 2, 5);
    expect(net(s).topology).toMatchObject({ dims: [3, 3, 5] });
    s = setTorusRank(s, 1);
    expect(net(s).topology).toMatchObject({ dims: [3] });
    // Switching to the kind it has keeps the size.
    expect(net(setTopologyKind(s, 'torus')).topology).toBe(net(s).topology);
  });

  it('generators, destinations and sizes switch kind keeping what carries over', () => {
    let s = setGenerator(network(), 0, 'cbr');
    expect(net(s).classes[0]?.traffic.generator).toEqual({ kind: 'cbr', rate_bps: 64_000, packet_bytes: 160 });
    s = setDestinations(s, 0, 'hot_spot');
    expect(net(s).classes[0]?.traffic.destinations).toEqual({ kind: 'hot_spot', endpoint: 0, fraction: 0.2 });
    expect(sizeOfKind({ kind: 'pareto', min_bytes: 64, max_bytes: 1024, shape: 1.2 }, 'fixed')).toEqual({ kind: 'fixed', bytes: 1024 });
    expect(sizeOfKind({ kind: 'fixed', bytes: 2048 }, 'uniform')).toEqual({ kind: 'uniform', min_bytes: 64, max_bytes: 2048 });
  });

  it('admission control turns on with nothing reserved and off without a trace', () => {
    const starter = setAdmission(network(), false);
    expect(net(starter).admission).toBeUndefined();
    expect('admission' in net(starter)).toBe(false);
    const on = setAdmission(starter, true);
    expect(net(on).admission).toEqual({ qos_cap: 1, reserved: [0, 0, 0, 0, 0, 0, 0] });
    const edited = setReserved(setAdmissionCap(on, 0.7), 1, 0.05);
    expect(net(edited).admission).toEqual({ qos_cap: 0.7, reserved: [0, 0.05, 0, 0, 0, 0, 0] });
    expect(isConnectionClass(net(on).classes[1]!)).toBe(true);
    expect(isConnectionClass(net(on).classes[0]!)).toBe(false);
  });

  it('a kind switch asks the engine about the port classes; its answer and per-class numbers are set one by one', () => {
    const request = networkSchedulerRequest(net(network()), 'interface_scheduler', 'scfq');
    expect(request.kind).toBe('scfq');
    expect(request.from).toEqual(net(network()).interface_scheduler);
    expect(request.classes.map((c) => c.name)).toEqual(net(network()).classes.map((c) => c.name));
    expect(request.classes.every((c) => c.traffic.size.kind === 'fixed')).toBe(true);
    let s = setNetworkScheduler(network(), 'interface_scheduler', { kind: 'scfq', weights: [1, 1, 1, 1, 1, 1, 1] });
    const scfq = net(s).interface_scheduler;
    expect(scfq.kind).toBe('scfq');
    s = setNetworkPerClass(s, 'interface_scheduler', 1, 42);
    const after = net(s).interface_scheduler;
    expect(after.kind === 'scfq' && after.weights[1]).toBe(42);
    // The other scheduler is untouched.
    expect(net(s).switch_scheduler).toEqual(net(network()).switch_scheduler);
  });
});
