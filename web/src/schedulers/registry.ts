// Every scheduler kind the web knows, one module each, registered here in menu order.
// `SCHEDULERS` is a record over the generated `SchedulerConfig` kinds, so a kind added to
// the engine does not type-check until its module is written and listed here. The
// functions below are what the rest of the web calls: each looks the kind up; none
// switches on it.
import type { ClassConfig, SchedulerConfig } from '../generated';
import { asBasic } from './asBasic';
import { drr } from './drr';
import { dtable } from './dtable';
import { edf } from './edf';
import { fifo } from './fifo';
import { iba } from './iba';
import { scfq } from './scfq';
import { sfq } from './sfq';
import { strictPriority } from './strictPriority';
import type { PerClassList, SchedulerKind, SchedulerUi } from './types';
import { wf2qPlus } from './wf2qPlus';
import { wfq } from './wfq';

export type { ConfigOf, SchedulerKind, SchedulerUi } from './types';

/** Every kind, in menu order. */
export const SCHEDULERS: { readonly [K in SchedulerKind]: SchedulerUi<K> } = {
  as_basic: asBasic,
  iba,
  dtable,
  drr,
  scfq,
  wfq,
  wf2q_plus: wf2qPlus,
  sfq,
  strict_priority: strictPriority,
  fifo,
  edf,
};

/** The kinds in menu order. */
export const SCHEDULER_KINDS: readonly SchedulerKind[] = Object.keys(SCHEDULERS) as SchedulerKind[];

/**
 * The module of `config`'s kind, typed for any configuration. (TypeScript cannot relate
 * `SCHEDULERS[config.kind]` to `config` itself; every module only receives configurations
 * of its own kind through these functions.)
 */
export function schedulerUi(config: SchedulerConfig | { kind: SchedulerKind }): SchedulerUi<SchedulerKind> {
  return SCHEDULERS[config.kind] as unknown as SchedulerUi<SchedulerKind>;
}

/** The module of a kind named by a string (a trace, a results file), or undefined. */
export function lookupScheduler(kind: string): SchedulerUi<SchedulerKind> | undefined {
  return Object.hasOwn(SCHEDULERS, kind) ? schedulerUi({ kind: kind as SchedulerKind }) : undefined;
}

/** The short human name of a kind (the kind itself if unknown). */
export function schedulerName(kind: string): string {
  return lookupScheduler(kind)?.short ?? kind;
}

/** The long human name of a kind (the kind itself if unknown). */
export function schedulerTitle(kind: string): string {
  return lookupScheduler(kind)?.title ?? kind;
}

/** The scheduler with class `added` appended (its index is `n`, the old class count). */
export function withClassAdded(config: SchedulerConfig, added: ClassConfig, n: number): SchedulerConfig {
  return schedulerUi(config).withClassAdded(config, added, n);
}

/**
 * Drops class `i` (of `n`) from the scheduler (its entries and list items) and renumbers
 * the later classes. An AS basic table keeps its size: the removed class's entries go to
 * the remaining classes in turn.
 */
export function withClassRemoved(config: SchedulerConfig, i: number, n: number): SchedulerConfig {
  return schedulerUi(config).withClassRemoved(config, i, n);
}

/** The per-class list of the kind (weights, quanta, ...), or undefined when it has none. */
export function perClassList(kind: SchedulerKind): PerClassList<SchedulerKind> | undefined {
  return schedulerUi({ kind }).perClass;
}

/** Item `i` of the per-class list of the scheduler set to `value` (unchanged without one). */
export function setPerClass(config: SchedulerConfig, i: number, value: number): SchedulerConfig {
  const list = schedulerUi(config).perClass;
  if (!list) return config;
  return list.set(config, list.get(config).map((v, k) => (k === i ? value : v)));
}

/** Number of table entries of every class (0 for kinds without tables). */
export function entryCounts(config: SchedulerConfig, n: number): number[] {
  const counts = new Array<number>(n).fill(0);
  for (const c of schedulerUi(config).tableClasses?.(config) ?? []) {
    if (Number.isInteger(c) && c >= 0 && c < n) counts[c] = (counts[c] ?? 0) + 1;
  }
  return counts;
}
