import { describe, expect, it } from 'vitest';
import r2Json from '../../../engine/core/tests/data/network-r2.json';
import type { LanesConfig, NetworkConfig, Scenario } from '../generated';
import { addNetworkClass, removeNetworkClass } from './edit';
import { laneListsOf, setCreditPolicy, setLaneList, setLaneMapKind, setSharedCredits, startLaneMap } from './lanes';

const network = (): Scenario => structuredClone(r2Json) as Scenario;
const net = (s: Scenario): NetworkConfig => {
  if (s.model.kind !== 'network') throw new Error('not a network');
  return s.model;
};
const lanes = (s: Scenario): LanesConfig | undefined => net(s).lanes;

describe('lane edits', () => {
  it('a map starts with class i on lane i and its tables are edited entry by entry', () => {
    expect(startLaneMap('sl2vl', 3)).toEqual({ kind: 'sl2vl', sl2vl: [0, 1, 2] });
    expect(startLaneMap('omnipath', 2)).toEqual({ kind: 'omnipath', sl2sc: [0, 1], sc2vl: [0, 1], sc2sl: [0, 1] });
    let s = setLaneMapKind(network(), 'sl2vl');
    s = setLaneList(s, 'sl2vl', 6, 0);
    expect(lanes(s)?.map).toEqual({ kind: 'sl2vl', sl2vl: [0, 1, 2, 3, 4, 5, 0] });
    // A field the map does not have changes nothing.
    expect(setLaneList(s, 'vc', 0, 3)).toEqual(s);
    const map = lanes(s)?.map;
    expect(map && laneListsOf(map, net(s).classes).map((l) => [l.title, l.label(1)])).toEqual([['SL2VL', 'VL of VO (SL 1)']]);
  });

  it('shared credits start with the largest packet reserved and one buffer at most per lane', () => {
    let s = setCreditPolicy(network(), 'shared');
    expect(lanes(s)?.credits).toEqual({ kind: 'shared', min_bytes: 2048, max_bytes: 16_384 });
    s = setSharedCredits(s, { min_bytes: 4096 });
    expect(lanes(s)?.credits).toEqual({ kind: 'shared', min_bytes: 4096, max_bytes: 16_384 });
    expect(lanes(setCreditPolicy(s, 'per_lane'))?.credits).toEqual({ kind: 'per_lane' });
  });

  it('per-class tables follow classes added and removed', () => {
    let s = setLaneMapKind(network(), 'class_to_vc');
    s = addNetworkClass(s);
    expect(lanes(s)?.map).toEqual({ kind: 'class_to_vc', vc: [0, 1, 2, 3, 4, 5, 6, 7] });
    s = removeNetworkClass(s, 0);
    expect(lanes(s)?.map).toEqual({ kind: 'class_to_vc', vc: [1, 2, 3, 4, 5, 6, 7] });
    // Omni-Path: the SC tables grow for a new SL, and SC2SL follows the SLs moving down.
    let o = setLaneMapKind(network(), 'omnipath');
    o = addNetworkClass(o);
    expect(lanes(o)?.map).toMatchObject({ sl2sc: [0, 1, 2, 3, 4, 5, 6, 7], sc2vl: [0, 1, 2, 3, 4, 5, 6, 7], sc2sl: [0, 1, 2, 3, 4, 5, 6, 7] });
    o = removeNetworkClass(o, 2);
    expect(lanes(o)?.map).toMatchObject({ sl2sc: [0, 1, 3, 4, 5, 6, 7], sc2sl: [0, 1, 2, 2, 3, 4, 5, 6] });
    // Without lanes nothing is added.
    expect(lanes(addNetworkClass(network()))).toBeUndefined();
  });
});
