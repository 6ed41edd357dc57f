// A scenario whose model is a network, and applying an edit to its network: what every
// network edit (edit.ts, lanes.ts) builds on.
import type { NetworkConfig, Scenario } from '../generated';

/** A scenario whose model is a network: what the network editor edits. */
export type NetworkScenario = Scenario & { model: { kind: 'network' } & NetworkConfig };

export function isNetwork(s: Scenario): s is NetworkScenario {
  return s.model.kind === 'network';
}

/** Applies `f` to the network of `s` (a link lab is left unchanged). */
export function editNetwork(s: Scenario, f: (net: NetworkConfig) => NetworkConfig): Scenario {
  if (!isNetwork(s)) return s;
  const { kind, ...net } = s.model;
  return { ...s, model: { kind, ...f(net) } };
}

/** The InfiniBand-like switch's reference buffer per port (input and output alike), in bytes. */
export const IB_PORT_BUFFER = 114_688;
