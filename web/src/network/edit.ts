// Scenario edits of a network as pure functions: each takes a scenario and returns a new
// one (inputs are never mutated). Kind switches start from typical values, not from
// rules: the engine's validation names every field that is out of range.
import type {
  ClassConfig,
  DestinationConfig,
  GeneratorConfig,
  NetworkClassConfig,
  NetworkConfig,
  RoutingConfig,
  Scenario,
  SchedulerConfig,
  SizeConfig,
  StartingRequest,
  SwitchConfig,
  TopologyConfig,
} from '../generated';
import { maxPacketBytes } from './describe';
import { editNetwork, IB_PORT_BUFFER } from './networkScenario';
import { lanesWithClassAdded, lanesWithClassRemoved } from './lanes';
import { setPerClass, withClassAdded, withClassRemoved, type SchedulerKind } from '../schedulers/registry';

export type TopologyKind = TopologyConfig['kind'];

/** Each topology kind with its name and the size a new one starts with. */
export const TOPOLOGIES: Readonly<Record<TopologyKind, { label: string; start: TopologyConfig }>> = {
  link: { label: 'Single link', start: { kind: 'link' } },
  single_switch: { label: 'Single switch', start: { kind: 'single_switch', ports: 8 } },
  min: { label: 'MIN (perfect shuffle)', start: { kind: 'min', end_points: 16, switch_ports: 4 } },
  tree: { label: 'k-ary n-tree', start: { kind: 'tree', k: 2, n: 3 } },
  torus: { label: 'Torus', start: { kind: 'torus', dims: [3, 3], trunk_ports: 1, end_points_per_switch: 2 } },
};

/** Switches the topology to `kind` (a fresh one of its starting size). */
export function setTopologyKind(s: Scenario, kind: TopologyKind): Scenario {
  return editNetwork(s, (net) => (net.topology.kind === kind ? net : { ...net, topology: structuredClone(TOPOLOGIES[kind].start) }));
}

/** Replaces the topology's parameters (the kind stays). */
export function setTopology(s: Scenario, topology: TopologyConfig): Scenario {
  return editNetwork(s, (net) => ({ ...net, topology }));
}

/** Sets the size of a torus's dimension `d`. */
export function setTorusDim(s: Scenario, d: number, size: number): Scenario {
  return editNetwork(s, (net) =>
    net.topology.kind === 'torus' ? { ...net, topology: { ...net.topology, dims: net.topology.dims.map((x, k) => (k === d ? size : x)) } } : net,
  );
}

/** Adds a dimension to a torus (the size of its last one), or removes its last one. */
export function setTorusRank(s: Scenario, rank: number): Scenario {
  return editNetwork(s, (net) => {
    if (net.topology.kind !== 'torus') return net;
    const dims = net.topology.dims.slice(0, rank);
    while (dims.length < rank) dims.push(dims[dims.length - 1] ?? 2);
    return { ...net, topology: { ...net.topology, dims } };
  });
}

export type SwitchKind = SwitchConfig['kind'];

/** Each switch model with its name and the parameters a new one starts with (the reference CIOQ switch). */
export const SWITCH_MODELS: Readonly<Record<SwitchKind, { label: string; start: SwitchConfig }>> = {
  cioq: {
    label: 'CIOQ',
    start: { kind: 'cioq', speedup: 1.5, header_crossing_ns: 145, input_buffer_bytes: 16_384, output_buffer_bytes: 16_384 },
  },
  two_vc: {
    label: 'Two-VC (priority arbiters)',
    start: {
      kind: 'two_vc',
      speedup: 2,
      header_crossing_ns: 145,
      input_buffer_bytes: 8_192,
      output_buffer_bytes: 8_192,
      arbitration: 'priority',
    },
  },
  infiniband: {
    label: 'InfiniBand-like (VL pipeline)',
    start: {
      kind: 'infiniband',
      speedup: 1,
      input_buffer_bytes: IB_PORT_BUFFER,
      output_buffer_bytes: IB_PORT_BUFFER,
      cycles: { input_buffer: 1, routing: 1, vl_allocation: 1, switch_allocation: 1, crossbar: 1, output_buffer: 1 },
    },
  },
  omnipath: {
    label: 'Omni-Path-like (MPorts, central crossbar)',
    start: {
      kind: 'omnipath',
      speedup: 3,
      input_buffer_bytes: IB_PORT_BUFFER,
      output_buffer_bytes: IB_PORT_BUFFER,
      central_buffer_bytes: 2 * IB_PORT_BUFFER,
      cycles: { input_buffer: 1, routing: 1, vl_allocation: 1, switch_allocation: 1, crossbar: 1, output_buffer: 1 },
      central_cycles: { buffer: 1, vl_allocation: 1, switch_allocation: 1, crossbar: 1 },
    },
  },
};

/** Switches every switch to model `kind` (its starting parameters). */
export function setSwitchKind(s: Scenario, kind: SwitchKind): Scenario {
  const start = SWITCH_MODELS[kind].start;
  return editNetwork(s, (net) => (net.switch.kind === start.kind ? net : { ...net, switch: structuredClone(start) }));
}

export type RoutingKind = RoutingConfig['kind'];

/** The routings the scenario format names, with their names (which the engine accepts for a topology is its to say). */
export const ROUTINGS: Readonly<Record<RoutingKind, string>> = {
  up_down: 'up*/down*',
  valiant: 'Valiant',
  dimension_order: 'Dimension order',
  least_occupied: 'Least occupied (per connection)',
};

/** The routing a network uses (the format's default when it names none). */
export function routingOf(net: NetworkConfig): RoutingKind {
  return net.routing?.kind ?? 'up_down';
}

export function setRouting(s: Scenario, kind: RoutingKind): Scenario {
  return editNetwork(s, (net) => ({ ...net, routing: { kind } }));
}

export type GeneratorKind = GeneratorConfig['kind'];

/** Generators a class can be switched to (a trace is uploaded in the R2 view). */
export type SwitchableGeneratorKind = Exclude<GeneratorKind, 'video_trace'>;

/** One-packet bursts of 1024 B: what a new class sends. */
const POISSON_PACKETS: GeneratorConfig = { kind: 'bursts', packets: 1, size: { kind: 'fixed', bytes: 1024 } };

/** The switchable generators, with the parameters a new one starts with. */
export const GENERATORS: readonly { kind: SwitchableGeneratorKind; label: string; start: GeneratorConfig }[] = [
  { kind: 'bursts', label: 'Bursts', start: POISSON_PACKETS },
  { kind: 'cbr', label: 'CBR connections', start: { kind: 'cbr', rate_bps: 64_000, packet_bytes: 160 } },
  {
    kind: 'video',
    label: 'Video connections',
    start: {
      kind: 'video',
      rate_bps: 3_000_000,
      frame_interval_us: 40_000,
      gop: 'IBBPBBPBBPBB',
      i_ratio: 10,
      p_ratio: 4,
      b_ratio: 1,
      variation: 0.3,
      mtu_bytes: 2048,
    },
  },
];

export type SizeKind = SizeConfig['kind'];

/** A packet-size distribution of `kind` that keeps the largest packet of `from`. */
export function sizeOfKind(from: SizeConfig, kind: SizeKind): SizeConfig {
  if (from.kind === kind) return from;
  const max = from.kind === 'fixed' ? from.bytes : from.max_bytes;
  const min = from.kind === 'fixed' ? Math.min(64, max) : from.min_bytes;
  switch (kind) {
    case 'fixed':
      return { kind, bytes: max };
    case 'uniform':
      return { kind, min_bytes: min, max_bytes: max };
    case 'pareto':
      return { kind, min_bytes: min, max_bytes: max, shape: 1.2 };
  }
}

export type DestinationKind = DestinationConfig['kind'];

/** Destination patterns with the parameters a new one starts with. */
export const DESTINATIONS: Readonly<Record<DestinationKind, { label: string; start: DestinationConfig }>> = {
  uniform: { label: 'Uniform', start: { kind: 'uniform' } },
  zipf: { label: 'Zipf', start: { kind: 'zipf', exponent: 1, ranking: 'random' } },
  hot_spot: { label: 'Hot spot', start: { kind: 'hot_spot', endpoint: 0, fraction: 0.2 } },
  permutation: { label: 'Permutation', start: { kind: 'permutation', pattern: 'random_derangement' } },
};

/** Edits class `i` of the network. */
export function editClass(s: Scenario, i: number, f: (c: NetworkClassConfig) => NetworkClassConfig): Scenario {
  return editNetwork(s, (net) => ({ ...net, classes: net.classes.map((c, k) => (k === i ? f(c) : c)) }));
}

export function setGenerator(s: Scenario, i: number, kind: GeneratorKind): Scenario {
  const start = GENERATORS.find((g) => g.kind === (kind as string))?.start;
  return start
    ? editClass(s, i, (c) => (c.traffic.generator.kind === kind ? c : { ...c, traffic: { ...c.traffic, generator: structuredClone(start) } }))
    : s;
}

export function setDestinations(s: Scenario, i: number, kind: DestinationKind): Scenario {
  return editClass(s, i, (c) =>
    c.traffic.destinations.kind === kind ? c : { ...c, traffic: { ...c.traffic, destinations: structuredClone(DESTINATIONS[kind].start) } },
  );
}

/**
 * A network class as the scheduler helpers of `schedulers/registry.ts` see a port's class:
 * they read only its name, load and largest packet (to size quanta, table weights and
 * deadlines), so it is a fixed-size class of that packet.
 */
export function portClass(c: NetworkClassConfig): ClassConfig {
  return { name: c.name, traffic: { load: c.traffic.load, arrivals: { kind: 'poisson' }, size: { kind: 'fixed', bytes: maxPacketBytes(c) } } };
}

export type SchedulerPlace = 'interface_scheduler' | 'switch_scheduler';

/**
 * What the engine is asked for to switch the scheduler at `place` of network `net` to `kind`
 * (its starting configuration keeps the class shares where it can).
 */
export function networkSchedulerRequest(net: NetworkConfig, place: SchedulerPlace, kind: SchedulerKind): StartingRequest {
  return { kind, from: net[place], classes: net.classes.map(portClass), rate_gbps: net.link.rate_gbps };
}

/** Sets the scheduler at `place` (a configuration the engine gave for a kind switch). */
export function setNetworkScheduler(s: Scenario, place: SchedulerPlace, config: SchedulerConfig): Scenario {
  return editNetwork(s, (net) => ({ ...net, [place]: config }));
}

/** Sets item `i` of the per-class list (weights, quanta, …) of the scheduler at `place`. */
export function setNetworkPerClass(s: Scenario, place: SchedulerPlace, i: number, value: number): Scenario {
  return editNetwork(s, (net) => ({ ...net, [place]: setPerClass(net[place], i, value) }));
}

/** Whether a class opens connections (CBR, video), which admission control reserves for. */
export function isConnectionClass(c: NetworkClassConfig): boolean {
  return c.traffic.generator.kind !== 'bursts';
}

/** Turns admission control on (no cap, nothing reserved yet) or off. */
export function setAdmission(s: Scenario, on: boolean): Scenario {
  return editNetwork(s, (net) => {
    if (on === Boolean(net.admission)) return net;
    const { admission: _dropped, ...rest } = net;
    return on ? { ...rest, admission: { qos_cap: 1, reserved: net.classes.map(() => 0) } } : rest;
  });
}

/** Sets the cap of all connection classes together. */
export function setAdmissionCap(s: Scenario, qosCap: number): Scenario {
  return editNetwork(s, (net) => (net.admission ? { ...net, admission: { ...net.admission, qos_cap: qosCap } } : net));
}

/** Sets the fraction of every link class `i` may reserve. */
export function setReserved(s: Scenario, i: number, fraction: number): Scenario {
  return editNetwork(s, (net) =>
    net.admission ? { ...net, admission: { ...net.admission, reserved: net.admission.reserved.map((r, k) => (k === i ? fraction : r)) } } : net,
  );
}

/** A class name not used yet ("C2", "C3", …). */
function freshName(classes: readonly NetworkClassConfig[]): string {
  for (let k = classes.length; ; k++) {
    const name = `C${k}`;
    if (!classes.some((c) => c.name === name)) return name;
  }
}

/** Adds a best-effort class of one-packet bursts, with its place in both schedulers and in admission control. */
export function addNetworkClass(s: Scenario): Scenario {
  return editNetwork(s, (net) => {
    const cls: NetworkClassConfig = {
      name: freshName(net.classes),
      best_effort: true,
      traffic: { load: 0.1, generator: structuredClone(POISSON_PACKETS), destinations: { kind: 'uniform' } },
    };
    const n = net.classes.length;
    return {
      ...net,
      classes: [...net.classes, cls],
      ...(net.lanes ? { lanes: lanesWithClassAdded(net.lanes, n) } : {}),
      interface_scheduler: withClassAdded(net.interface_scheduler, portClass(cls), n),
      switch_scheduler: withClassAdded(net.switch_scheduler, portClass(cls), n),
      ...(net.admission ? { admission: { ...net.admission, reserved: [...net.admission.reserved, 0] } } : {}),
    };
  });
}

/** Removes class `i` from the classes, both schedulers and admission control. */
export function removeNetworkClass(s: Scenario, i: number): Scenario {
  return editNetwork(s, (net) => {
    const n = net.classes.length;
    return {
      ...net,
      classes: net.classes.filter((_, k) => k !== i),
      ...(net.lanes ? { lanes: lanesWithClassRemoved(net.lanes, i) } : {}),
      interface_scheduler: withClassRemoved(net.interface_scheduler, i, n),
      switch_scheduler: withClassRemoved(net.switch_scheduler, i, n),
      ...(net.admission ? { admission: { ...net.admission, reserved: net.admission.reserved.filter((_, k) => k !== i) } } : {}),
    };
  });
}
