// Edits of a network's lanes (`model.lanes`) as pure functions: the lane map (which lane
// each class takes) and the credit policy of the switch input buffers. Starting values
// put class i on lane i; the engine's validation names any entry a technology refuses.
import type { CreditPolicyConfig, LaneMapConfig, LanesConfig, NetworkClassConfig, NetworkConfig, Scenario } from '../generated';
import { maxPacketBytes } from './describe';
import { editNetwork, IB_PORT_BUFFER } from './networkScenario';

export type LaneMapKind = LaneMapConfig['kind'];

/** Each lane map with its name and what it says. */
export const LANE_MAPS: Readonly<Record<LaneMapKind, { label: string; hint: string }>> = {
  identity: { label: 'Identity (one lane per class)', hint: 'Every class (SL) has a lane of its own.' },
  sl2vl: { label: 'InfiniBand SL2VL', hint: 'The VL of each SL (VLs 0 to 14); classes may share a VL.' },
  omnipath: { label: 'Omni-Path SL2SC, SC2VL, SC2SL', hint: 'SL to SC at the source, SC to VL at every port, SC back to SL at the destination.' },
  class_to_vc: { label: 'Class to VC', hint: 'The switch VC of each class; several classes may share a VC.' },
};

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A map of `kind` for `n` classes, class i on lane i. */
export function startLaneMap(kind: LaneMapKind, n: number): LaneMapConfig {
  switch (kind) {
    case 'identity':
      return { kind };
    case 'sl2vl':
      return { kind, sl2vl: upTo(n) };
    case 'class_to_vc':
      return { kind, vc: upTo(n) };
    case 'omnipath':
      return { kind, sl2sc: upTo(n), sc2vl: upTo(n), sc2sl: upTo(n) };
  }
}

/** The lists of a map the editor shows, one number field per entry. */
export interface LaneList {
  field: 'sl2vl' | 'vc' | 'sl2sc' | 'sc2vl' | 'sc2sl';
  /** The table's name, e.g. "SL2VL". */
  title: string;
  values: readonly number[];
  label: (i: number) => string;
}

export function laneListsOf(map: LaneMapConfig, classes: readonly NetworkClassConfig[]): LaneList[] {
  const name = (i: number) => classes[i]?.name || `class ${i}`;
  switch (map.kind) {
    case 'identity':
      return [];
    case 'sl2vl':
      return [{ field: 'sl2vl', title: 'SL2VL', values: map.sl2vl, label: (i) => `VL of ${name(i)} (SL ${i})` }];
    case 'class_to_vc':
      return [{ field: 'vc', title: 'Class to VC', values: map.vc, label: (i) => `VC of ${name(i)}` }];
    case 'omnipath':
      return [
        { field: 'sl2sc', title: 'SL2SC', values: map.sl2sc, label: (i) => `SC of ${name(i)} (SL ${i})` },
        { field: 'sc2vl', title: 'SC2VL', values: map.sc2vl, label: (c) => `VL of SC ${c}` },
        { field: 'sc2sl', title: 'SC2SL', values: map.sc2sl, label: (c) => `SL of SC ${c}` },
      ];
  }
}

function editLanes(s: Scenario, f: (lanes: LanesConfig, net: NetworkConfig) => LanesConfig): Scenario {
  return editNetwork(s, (net) => ({ ...net, lanes: f(net.lanes ?? {}, net) }));
}

export function setLaneMapKind(s: Scenario, kind: LaneMapKind): Scenario {
  return editLanes(s, (lanes, net) => (lanes.map?.kind === kind ? lanes : { ...lanes, map: startLaneMap(kind, net.classes.length) }));
}

/** Sets entry `i` of the map's list `field`. */
export function setLaneList(s: Scenario, field: LaneList['field'], i: number, value: number): Scenario {
  return editLanes(s, (lanes) => {
    const map = lanes.map;
    if (!map || !(field in map)) return lanes;
    const list = (map as Record<string, unknown>)[field];
    if (!Array.isArray(list)) return lanes;
    return { ...lanes, map: { ...map, [field]: list.map((v: number, k) => (k === i ? value : v)) } };
  });
}

/** Switches the credit policy: shared starts with the largest packet reserved per lane and at most one buffer per lane. */
export function setCreditPolicy(s: Scenario, kind: CreditPolicyConfig['kind']): Scenario {
  return editLanes(s, (lanes, net) => {
    if ((lanes.credits?.kind ?? 'per_lane') === kind) return lanes;
    if (kind === 'per_lane') return { ...lanes, credits: { kind } };
    // The InfiniBand-like switch's buffer is per port (the lanes share it), the others' per lane.
    const buffer = net.switch.input_buffer_bytes ?? IB_PORT_BUFFER;
    // The largest packet reserved per lane (the engine's floor), at most the whole buffer.
    const mtu = Math.max(64, ...net.classes.map(maxPacketBytes));
    return { ...lanes, credits: { kind, min_bytes: Math.min(buffer, mtu), max_bytes: buffer } };
  });
}

export function setSharedCredits(s: Scenario, patch: { min_bytes?: number; max_bytes?: number }): Scenario {
  return editLanes(s, (lanes) => (lanes.credits?.kind === 'shared' ? { ...lanes, credits: { ...lanes.credits, ...patch } } : lanes));
}

/** The lanes with a place for a new class `n` (the next lane) in the per-class tables. */
export function lanesWithClassAdded(lanes: LanesConfig | undefined, n: number): LanesConfig | undefined {
  return lanes?.map ? { ...lanes, map: mapWithClassAdded(lanes.map, n) } : lanes;
}

/** The lanes without class `i` in the per-class tables. */
export function lanesWithClassRemoved(lanes: LanesConfig | undefined, i: number): LanesConfig | undefined {
  return lanes?.map ? { ...lanes, map: mapWithClassRemoved(lanes.map, i) } : lanes;
}

function mapWithClassAdded(map: LaneMapConfig, n: number): LaneMapConfig {
  switch (map.kind) {
    case 'identity':
      return map;
    case 'sl2vl':
      return { ...map, sl2vl: [...map.sl2vl, n] };
    case 'class_to_vc':
      return { ...map, vc: [...map.vc, n] };
    case 'omnipath': {
      // SC n for the new SL n, on VL n, read back as SL n (where the SC tables are that short).
      const grow = (list: number[]): number[] => (list.length <= n ? [...list, ...upTo(n + 1 - list.length).map((k) => list.length + k)] : list);
      return { ...map, sl2sc: [...map.sl2sc, n], sc2vl: grow(map.sc2vl), sc2sl: grow(map.sc2sl) };
    }
  }
}

function mapWithClassRemoved(map: LaneMapConfig, i: number): LaneMapConfig {
  const drop = (list: readonly number[]) => list.filter((_, k) => k !== i);
  switch (map.kind) {
    case 'identity':
      return map;
    case 'sl2vl':
      return { ...map, sl2vl: drop(map.sl2vl) };
    case 'class_to_vc':
      return { ...map, vc: drop(map.vc) };
    case 'omnipath':
      // Later SLs move down one, so the SCs that read back as them do too.
      return { ...map, sl2sc: drop(map.sl2sc), sc2sl: map.sc2sl.map((sl) => (sl > i ? sl - 1 : sl)) };
  }
}
