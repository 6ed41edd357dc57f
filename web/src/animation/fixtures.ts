// Small hand-made traces (test fixtures), following the engine's Trace format and each
// scheduler's rules step by step.
import type { Decision, Registers, SchedulerCost, Trace } from '../generated';

const NO_WORK: SchedulerCost = {
  decisions: 1,
  entries_visited: 0,
  bitmap_words: 0,
  classes_examined: 0,
  tag_computations: 0,
  heap_operations: 0,
};

function decision(
  step: number,
  klass: number,
  bytes: number,
  queues: number[][],
  registers: Registers,
  work: Partial<SchedulerCost> = {},
  free: number[] = queues.map(() => 10),
): Decision {
  const time = step * 100;
  return {
    step,
    time_ns: time,
    end_ns: time + bytes / 0.25,
    class: klass,
    bytes,
    credits: Math.ceil(bytes / 64),
    queues,
    queue_lengths: queues.map((q) => q.length),
    free_credits: free,
    registers,
    work: { ...NO_WORK, ...work },
  };
}

const TWO_CLASSES = [
  { name: 'A', mtu_bytes: 192, buffer_credits: 10 },
  { name: 'B', mtu_bytes: 128, buffer_credits: 10 },
];

/**
 * DTable, table [(A, 4), (B, 2)], queues A: 128 B, 192 B; B: 64 B.
 * 0: entry 0 (A): accumulated 0 + 4 = 4, sends 2 credits -> 2.
 * 1: A's head needs 3 > 2: deficit A = 2; entry 1 (B): 0 + 2, sends 1 credit -> 1; B empties -> 0.
 * 2: entry 0 (A): 2 + 4 = 6, sends 3 credits -> 3; A empties -> 0.
 */
export function dtableTrace(): Trace {
  return {
    scheduler: 'dtable',
    classes: TWO_CLASSES,
    link_rate_gbps: 2,
    from_ns: 0,
    table: [
      { table: 'main', index: 0, class: 0, weight: 4 },
      { table: 'main', index: 1, class: 1, weight: 2 },
    ],
    initial: { accumulated: 0, deficit: [0, 0] },
    decisions: [
      decision(0, 0, 128, [[128, 192], [64]], { entry: 0, selected: 0, accumulated: 2, deficit: [0, 0] }, { entries_visited: 1, bitmap_words: 1 }),
      decision(1, 1, 64, [[192], [64]], { entry: 1, selected: 1, accumulated: 0, deficit: [2, 0] }, { entries_visited: 1, bitmap_words: 1 }, [8, 10]),
      decision(2, 0, 192, [[192], []], { entry: 0, selected: 0, accumulated: 0, deficit: [2, 0] }, { entries_visited: 1, bitmap_words: 1 }, [8, 9]),
    ],
  };
}

/** InfiniBand: high table [(A, 1)], low table [(B, 2), (A, 1)]; A sends from the high table. */
export function ibaTrace(): Trace {
  return {
    scheduler: 'iba',
    classes: TWO_CLASSES,
    link_rate_gbps: 2,
    from_ns: 0,
    table: [
      { table: 'high', index: 0, class: 0, weight: 1 },
      { table: 'low', index: 0, class: 1, weight: 2 },
      { table: 'low', index: 1, class: 0, weight: 1 },
    ],
    initial: { high_limit_used: 0, high_limit_bytes: 4096 },
    decisions: [
      decision(
        0,
        0,
        128,
        [[128], [64]],
        { entry: 0, table: 'high', high_entry: 0, selected: 0, remaining_weight: -1, high_limit_used: 128, high_limit_bytes: 4096 },
        { entries_visited: 1 },
      ),
      decision(
        1,
        1,
        64,
        [[], [64]],
        { entry: 0, table: 'low', high_entry: 0, low_entry: 0, selected: 1, remaining_weight: 1, high_limit_used: 0, high_limit_bytes: 4096 },
        { entries_visited: 1 },
      ),
    ],
  };
}

/** DRR with quanta A 192 B, B 128 B: A sends 128 B (deficit 192 -> 64), then B 64 B. */
export function drrTrace(): Trace {
  return {
    scheduler: 'drr',
    classes: TWO_CLASSES,
    link_rate_gbps: 2,
    from_ns: 0,
    table: [],
    initial: { deficit: [0, 0] },
    decisions: [
      decision(0, 0, 128, [[128, 192], [64]], { selected: 0, deficit: [64, 0] }, { classes_examined: 1 }),
      decision(1, 1, 64, [[192], [64]], { selected: 1, deficit: [64, 0] }, { classes_examined: 1 }),
    ],
  };
}

/** SCFQ: virtual time and head tags. */
export function scfqTrace(): Trace {
  return {
    scheduler: 'scfq',
    classes: TWO_CLASSES,
    link_rate_gbps: 2,
    from_ns: 0,
    table: [],
    initial: { virtual_time: 0, start_tags: [0, 0], finish_tags: [256, 128] },
    decisions: [
      decision(0, 1, 64, [[128], [64]], { virtual_time: 128, start_tags: [0, null], finish_tags: [256, null] }, {
        tag_computations: 1,
        heap_operations: 2,
      }),
    ],
  };
}

/** AS basic: table entries without weights. */
export function asBasicTrace(): Trace {
  const t = dtableTrace();
  return {
    ...t,
    scheduler: 'as_basic',
    table: t.table.map((e) => ({ table: e.table, index: e.index, class: e.class })),
    initial: {},
    decisions: t.decisions.map((d) => ({ ...d, registers: { entry: d.registers.entry, selected: d.registers.selected } })),
  };
}
