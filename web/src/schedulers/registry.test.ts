import { describe, expect, it } from 'vitest';
import type { ClassConfig, SchedulerConfig } from '../generated';
import { defaultScenario } from '../state/scenario';
import { AS_TABLE_SIZES } from './limits';
import { apportion, interleave } from './maths';
import { convertScheduler, SCHEDULER_KINDS, SCHEDULERS, schedulerShares, withClassAdded, withClassRemoved } from './registry';

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
    const table = interleave([8, 8, 8, 8]);
    expectShares(schedulerShares({ kind: 'as_basic', table }, four), [64 / 3392, 256 / 3392, 1024 / 3392, 2048 / 3392]);
  });
});

describe('converting between kinds keeps per-class shares', () => {
  it.each(['drr', 'scfq', 'wfq', 'wf2q_plus', 'sfq'] as const)('DTable → %s', (kind) => {
    const out = convertScheduler(dtable, kind, four, 2);
    expect(out.kind).toBe(kind);
    expectShares(schedulerShares(out, four), SHARES, 3);
  });

  it('DTable → FQ uses the credit sums as weights; FQ → FQ copies the weights', () => {
    expect(convertScheduler(dtable, 'wfq', four, 2)).toEqual({ kind: 'wfq', weights: [20, 20, 30, 40] });
    expect(convertScheduler({ kind: 'sfq', weights: [0.5, 2, 3, 4] }, 'scfq', four, 2)).toEqual({ kind: 'scfq', weights: [0.5, 2, 3, 4] });
  });

  it('DRR quanta: the smallest share gets at least its largest packet', () => {
    const out = convertScheduler({ kind: 'wfq', weights: [1, 1, 1, 1] }, 'drr', four, 2);
    expect(out).toEqual({ kind: 'drr', quanta_bytes: [2048, 2048, 2048, 2048] });
    const skew = convertScheduler({ kind: 'wfq', weights: [4, 1, 1, 1] }, 'drr', four, 2);
    if (skew.kind !== 'drr') throw new Error('kind');
    expect(Math.min(...skew.quanta_bytes.slice(1))).toBeGreaterThanOrEqual(2048);
    expect(skew.quanta_bytes[0]).toBe(4 * (skew.quanta_bytes[1] ?? 0));
  });

  it('DTable ↔ IBA keeps the entries (IBA weights capped at 255, in proportion)', () => {
    const iba = convertScheduler(dtable, 'iba', four, 2);
    expect(iba).toEqual({ kind: 'iba', high: [], low: dtable.kind === 'dtable' ? dtable.table : [], high_limit: 255 });
    const big: SchedulerConfig = { kind: 'dtable', table: [{ class: 0, weight: 1000 }, { class: 1, weight: 500 }] };
    expect(convertScheduler(big, 'iba', four.slice(0, 2), 2)).toEqual({
      kind: 'iba',
      high: [],
      low: [{ class: 0, weight: 255 }, { class: 1, weight: 128 }],
      high_limit: 255,
    });
    const back = convertScheduler({ kind: 'iba', high: [{ class: 1, weight: 5 }], low: [{ class: 0, weight: 0 }], high_limit: 3 }, 'dtable', four.slice(0, 2), 2);
    // Weight 0 (skipped in IBA) is not allowed in a DTable: it becomes 1.
    expect(back).toEqual({ kind: 'dtable', table: [{ class: 1, weight: 5 }, { class: 0, weight: 1 }] });
  });

  it('to AS basic: a legal size, every class present, bytes in about the same shares', () => {
    const out = convertScheduler({ kind: 'wfq', weights: [1, 1, 1, 1] }, 'as_basic', four, 2);
    if (out.kind !== 'as_basic') throw new Error('kind');
    expect(AS_TABLE_SIZES).toContain(out.table.length);
    expect(new Set(out.table)).toEqual(new Set([0, 1, 2, 3]));
    // Small packets need many more entries than large ones for equal bytes.
    const count = (c: number) => out.table.filter((x) => x === c).length;
    expect(count(0)).toBeGreaterThan(count(3));
  });

  it('from kinds without shares: equal shares; priority ↔ EDF keeps the order', () => {
    const fromFifo = convertScheduler({ kind: 'fifo' }, 'wfq', four, 2);
    expectShares(schedulerShares(fromFifo, four), [0.25, 0.25, 0.25, 0.25]);
    const edf = convertScheduler({ kind: 'strict_priority', priorities: [0, 5, 2, 9] }, 'edf', four, 2);
    if (edf.kind !== 'edf') throw new Error('kind');
    const order = [0, 1, 2, 3].sort((a, b) => (edf.deadlines_ns[a] ?? 0) - (edf.deadlines_ns[b] ?? 0));
    expect(order).toEqual([3, 1, 2, 0]);
    const prio = convertScheduler(edf, 'strict_priority', four, 2);
    if (prio.kind !== 'strict_priority') throw new Error('kind');
    const byPrio = [0, 1, 2, 3].sort((a, b) => (prio.priorities[b] ?? 0) - (prio.priorities[a] ?? 0));
    expect(byPrio).toEqual([3, 1, 2, 0]);
  });

  it('EDF deadlines from shares: time to send the largest packet at the share', () => {
    const edf = convertScheduler({ kind: 'wfq', weights: [1, 1, 1, 1] }, 'edf', four, 2);
    // 2048 B at a quarter of 2 Gb/s = 16384 bits / 0.5 (bits/ns) = 32768 ns.
    expect(edf).toEqual({ kind: 'edf', deadlines_ns: [1024, 4096, 16384, 32768] });
  });

  it('the default scenario converts to every kind and back to a DTable with the same shares', () => {
    const s = defaultScenario();
    for (const kind of SCHEDULER_KINDS) {
      const there = convertScheduler(s.model.scheduler, kind, s.model.classes, 2);
      expect(there.kind).toBe(kind);
      if (kind === 'fifo' || kind === 'strict_priority' || kind === 'edf' || kind === 'as_basic') continue;
      const back = convertScheduler(there, 'dtable', s.model.classes, 2);
      expectShares(schedulerShares(back, s.model.classes), schedulerShares(s.model.scheduler, s.model.classes) ?? [], 2);
    }
  });
});

describe('helpers', () => {
  it('apportion: sums to the total, proportional, at least the minimum', () => {
    expect(apportion([1, 1, 2], 8)).toEqual([2, 2, 4]);
    expect(apportion([1, 0, 1000], 10)).toEqual([1, 0, 9]);
    expect(apportion([1, 2, 3], 7).reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('interleave: counts kept, classes spread out', () => {
    const list = interleave([2, 1, 1]);
    expect(list).toEqual([0, 1, 2, 0]);
    const big = interleave([16, 8, 4, 4]);
    expect(big).toHaveLength(32);
    expect(big.filter((c) => c === 0)).toHaveLength(16);
    // Class 0 (half the slots) is never more than one slot off its ideal spacing of 2.
    const at = big.flatMap((c, j) => (c === 0 ? [j] : []));
    for (let k = 1; k < at.length; k++) expect((at[k] ?? 0) - (at[k - 1] ?? 0)).toBeLessThanOrEqual(3);
  });

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
