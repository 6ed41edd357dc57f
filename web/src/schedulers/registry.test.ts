import { describe, expect, it } from 'vitest';
import type { ClassConfig } from '../generated';
import { SCHEDULER_KINDS, SCHEDULERS, withClassAdded, withClassRemoved } from './registry';

const cls = (name: string, bytes: number): ClassConfig => ({
  name,
  traffic: { load: 0.2, arrivals: { kind: 'constant' }, size: { kind: 'fixed', bytes } },
});
// Shares are the engine's (`scheduler_weights`): its worked cases (DTable weights, DRR
// quanta, FQ weights, none for priority, FIFO, EDF, AS basic bytes) are in
// engine/core/src/scheduler_weights_tests.rs; the editors' tests fake its answer.

describe('scheduler kinds', () => {
  it('lists every kind once with a human name', () => {
    const kinds = [...SCHEDULER_KINDS];
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const k of kinds) expect(SCHEDULERS[k].kind).toBe(k);
    // The kinds of R1 and the spec, in menu order (a kind added later goes anywhere).
    const known = ['as_basic', 'iba', 'dtable', 'drr', 'scfq', 'wfq', 'wf2q_plus', 'sfq', 'strict_priority', 'fifo', 'edf'];
    expect(kinds.filter((k) => known.includes(k))).toEqual(known);
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
