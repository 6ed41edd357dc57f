import { describe, expect, it } from 'vitest';
import type { ClassConfig, SchedulerConfig } from '../generated';
import { SCHEDULER_KINDS, SCHEDULERS, schedulerShares, withClassAdded, withClassRemoved } from './registry';

const cls = (name: string, bytes: number): ClassConfig => ({
  name,
  traffic: { load: 0.2, arrivals: { kind: 'constant' }, size: { kind: 'fixed', bytes } },
});
const four = [cls('A', 64), cls('B', 256), cls('C', 1024), cls('D', 2048)];
const dtable: SchedulerConfig = {
  kind: 'dtable',
  table: [
    { class: 0, weight: 10 },
    { class: 1, weight: 20 },
    { class: 2, weight: 30 },
    { class: 3, weight: 40 },
    { class: 0, weight: 10 },
  ],
};
const SHARES = [20 / 110, 20 / 110, 30 / 110, 40 / 110];

function expectShares(actual: number[] | null, expected: number[], digits = 9) {
  expect(actual).not.toBeNull();
  actual?.forEach((v, i) => expect(v).toBeCloseTo(expected[i] ?? NaN, digits));
}

describe('scheduler kinds', () => {
  it('lists every kind once with a human name', () => {
    const kinds = [...SCHEDULER_KINDS];
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const k of kinds) expect(SCHEDULERS[k].kind).toBe(k);
    // The kinds of R1 and the spec, in menu order (a kind added later goes anywhere).
    const known = ['as_basic', 'iba', 'dtable', 'drr', 'scfq', 'wfq', 'wf2q_plus', 'sfq', 'strict_priority', 'fifo', 'edf'];
    expect(kinds.filter((k) => known.includes(k))).toEqual(known);
  });

  it('shares: DTable weights, DRR quanta, FQ weights; none for priority, FIFO, EDF', () => {
    expectShares(schedulerShares(dtable, four), SHARES);
    expectShares(schedulerShares({ kind: 'drr', quanta_bytes: [100, 300, 0, 600] }, four), [0.1, 0.3, 0, 0.6]);
    expectShares(schedulerShares({ kind: 'wfq', weights: [1, 1, 2, 4] }, four), [1 / 8, 1 / 8, 2 / 8, 4 / 8]);
    expect(schedulerShares({ kind: 'fifo' }, four)).toBeNull();
    expect(schedulerShares({ kind: 'strict_priority', priorities: [3, 2, 1, 0] }, four)).toBeNull();
    expect(schedulerShares({ kind: 'edf', deadlines_ns: [1, 2, 3, 4] }, four)).toBeNull();
  });

  it('AS basic shares count bytes: one packet of each class per entry', () => {
    // Equal entries, packets 64/256/1024/2048 B: bytes split as the sizes (R1's point).
    const table = Array.from({ length: 32 }, (_, j) => j % 4);
    expectShares(schedulerShares({ kind: 'as_basic', table }, four), [64 / 3392, 256 / 3392, 1024 / 3392, 2048 / 3392]);
  });
});

// Converting between kinds is the engine's (`starting_scheduler`): its tests are in
// engine/core/src/schedulers/starting_tests.rs; the editors' tests fake its answer.

describe('helpers', () => {
  it('adding and removing classes keeps per-class lists and tables consistent', () => {
    expect(withClassAdded({ kind: 'drr', quanta_bytes: [100, 200] }, cls('N', 512), 2)).toEqual({ kind: 'drr', quanta_bytes: [100, 200, 512] });
    expect(withClassRemoved({ kind: 'wfq', weights: [1, 2, 3] }, 1, 3)).toEqual({ kind: 'wfq', weights: [1, 3] });
    expect(withClassRemoved({ kind: 'iba', high: [{ class: 2, weight: 4 }], low: [{ class: 1, weight: 3 }], high_limit: 9 }, 1, 3)).toEqual({
      kind: 'iba',
      high: [{ class: 1, weight: 4 }],
      low: [],
      high_limit: 9,
    });
    const as = withClassAdded({ kind: 'as_basic', table: [0, 0, 0, 1] }, cls('N', 64), 2);
    expect(as).toEqual({ kind: 'as_basic', table: [0, 0, 2, 1] });
    const removed = withClassRemoved({ kind: 'as_basic', table: [0, 1, 2, 1, 2, 0] }, 1, 3);
    if (removed.kind !== 'as_basic') throw new Error('kind');
    expect(removed.table).toHaveLength(6);
    expect(removed.table).toEqual([0, 0, 1, 1, 1, 0]);
  });
});
