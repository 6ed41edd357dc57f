// Every registered kind against the rules its module must keep: the engine's starting
// configurations (generated fixtures: the web asks the engine for them) read back right,
// per-class lists and tables in step with the classes when classes are added and removed,
// the editor's parts matching what the module declares.
import { describe, expect, it } from 'vitest';
import type { ClassConfig, SchedulerConfig } from '../generated';
import { STARTING_2, STARTING_4, STARTING_CLASSES } from '../generated/mathsCases';
import { AS_TABLE_SIZES, IBA_MAX, IBA_MAX_ENTRIES } from './limits';
import { largestPacketCredits } from './maths';
import {
  entryCounts,
  lookupScheduler,
  schedulerName,
  SCHEDULER_KINDS,
  SCHEDULERS,
  schedulerUi,
  setPerClass,
  withClassAdded,
  withClassRemoved,
} from './registry';

const cls = (name: string, bytes: number): ClassConfig => ({
  name,
  traffic: { load: 0.2, arrivals: { kind: 'constant' }, size: { kind: 'fixed', bytes } },
});
const classes = [...STARTING_CLASSES];

/** The engine's starting configuration of `kind` for the first 2 or all 4 classes. */
function starting(kind: string, n: 2 | 4): SchedulerConfig {
  const config = (n === 2 ? STARTING_2 : STARTING_4).find((c) => c.kind === kind);
  if (!config) throw new Error(`no engine starting configuration of ${kind}`);
  return config;
}

/** What a configuration says about `n` classes: per-class list length, table classes. */
function checkFits(config: SchedulerConfig, n: number) {
  const ui = schedulerUi(config);
  if (ui.perClass) expect(ui.perClass.get(config)).toHaveLength(n);
  for (const c of ui.tableClasses?.(config) ?? []) {
    expect(Number.isInteger(c) && c >= 0 && c < n).toBe(true);
  }
}

describe('the registry', () => {
  it('registers every generated kind under its own name, with names and an editor', () => {
    expect(SCHEDULER_KINDS).toHaveLength(Object.keys(SCHEDULERS).length);
    for (const kind of SCHEDULER_KINDS) {
      const ui = SCHEDULERS[kind];
      expect(ui.kind).toBe(kind);
      expect(ui.label.length).toBeGreaterThan(0);
      expect(ui.short.length).toBeGreaterThan(0);
      expect(ui.title.length).toBeGreaterThan(0);
      expect(ui.description).toMatch(/\.$/);
      expect(ui.editor.length).toBeGreaterThan(0);
      expect(schedulerName(kind)).toBe(ui.short);
      expect(lookupScheduler(kind)).toBe(ui);
    }
    expect(new Set(SCHEDULER_KINDS.map((k) => SCHEDULERS[k].label)).size).toBe(SCHEDULER_KINDS.length);
    expect(lookupScheduler('dwcs_unknown')).toBeUndefined();
    expect(lookupScheduler('toString')).toBeUndefined();
    expect(schedulerName('dwcs_unknown')).toBe('dwcs_unknown');
  });

  it('the editor shows a per-class list or a fill exactly when the module has one', () => {
    for (const kind of SCHEDULER_KINDS) {
      const ui = SCHEDULERS[kind];
      const parts = ui.editor.map((p) => p.part);
      expect(parts.includes('per-class')).toBe(ui.perClass !== undefined);
      expect(parts.includes('fill')).toBe(ui.fill !== undefined);
      expect(ui.fill === undefined || ui.tableClasses !== undefined).toBe(true);
    }
  });

  it('the engine gives a starting configuration of every kind the web knows, and only those', () => {
    expect(STARTING_4.map((c) => c.kind)).toEqual([...SCHEDULER_KINDS]);
    expect(classes.map((c) => c.traffic.size)).toEqual([64, 256, 1024, 2048].map((bytes) => ({ kind: 'fixed', bytes })));
  });

  it.each(SCHEDULER_KINDS)('%s: the engine\'s start for 2 and 4 classes reads back within the editor\'s limits', (kind) => {
    for (const n of [2, 4] as const) {
      const cs = classes.slice(0, n);
      const config = starting(kind, n);
      expect(config.kind).toBe(kind);
      checkFits(config, n);
      const counts = entryCounts(config, n);
      if (schedulerUi(config).tableClasses) expect(counts.every((c) => c > 0)).toBe(true);
      if (config.kind === 'as_basic') expect(AS_TABLE_SIZES).toContain(config.table.length);
      if (config.kind === 'dtable') expect(config.table.every((e) => e.weight >= largestPacketCredits(cs[e.class]))).toBe(true);
      if (config.kind === 'iba') {
        expect(config.low.length).toBeLessThanOrEqual(IBA_MAX_ENTRIES);
        expect(config.low.every((e) => e.weight >= 1 && e.weight <= IBA_MAX)).toBe(true);
        expect(config.high_limit).toBeLessThanOrEqual(IBA_MAX);
      }
      const list = schedulerUi(config).perClass;
      if (list) {
        for (const v of list.get(config)) {
          expect(v).toBeGreaterThanOrEqual(list.min);
          expect(v).toBeLessThanOrEqual(list.max);
        }
      }
    }
  });

  it.each(SCHEDULER_KINDS)('%s: adding and removing classes keeps per-class lists and tables in step', (kind) => {
    let config = starting(kind, 2);
    const size = schedulerUi(config).tableClasses?.(config).length;
    for (let n = 2; n < 6; n++) {
      config = withClassAdded(config, classes[n % 4] as ClassConfig, n);
      checkFits(config, n + 1);
    }
    // 6 classes now; remove the middle one, then the first, then the last.
    for (const [i, n] of [[3, 6], [0, 5], [3, 4]] as const) {
      config = withClassRemoved(config, i, n);
      checkFits(config, n - 1);
    }
    if (kind === 'as_basic') expect(schedulerUi(config).tableClasses?.(config)).toHaveLength(size ?? -1);
  });

  it('a DTable entry added with a class lets a packet of its class through', () => {
    // (Converted tables keep that rule in the engine: starting_tests.rs.)
    const added = withClassAdded({ kind: 'dtable', table: [{ class: 0, weight: 1 }] }, cls('Big', 4096), 1);
    expect(added.kind === 'dtable' && added.table[1]).toEqual({ class: 1, weight: 64 });
  });

  it.each(SCHEDULER_KINDS)('%s: setting one per-class item changes only that item', (kind) => {
    const config = starting(kind, 4);
    const list = schedulerUi(config).perClass;
    const next = setPerClass(config, 2, 7);
    if (!list) {
      expect(next).toBe(config);
      return;
    }
    const before = list.get(config);
    const after = list.get(next);
    expect(after).toEqual(before.map((v, i) => (i === 2 ? 7 : v)));
    expect(list.get(config)).toEqual(before); // not mutated
  });
});
