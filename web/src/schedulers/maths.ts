// Arithmetic the scheduler modules share: packet sizes of a class (for the values a new
// class starts with), list and table edits when a class is added or removed. No engine
// formula is repeated here: a kind switch asks the engine (`starting_scheduler`: its
// apportionment and interleaving) and so does the share table (`scheduler_weights`: each
// kind's weights, an AS basic table's bounded Pareto means among them).
import type { ClassConfig, TableEntry } from '../generated';
import { UNIT_BYTES } from './limits';

/** Largest packet of a class in bytes (2048 when unknown). */
export function largestPacket(c: ClassConfig | undefined): number {
  if (!c) return 2048;
  const size = c.traffic.size;
  const b = size.kind === 'fixed' ? size.bytes : size.max_bytes;
  return Number.isFinite(b) && b > 0 ? b : 2048;
}

/** Credits (64 B) of a class's largest packet (at least 1). */
export function largestPacketCredits(c: ClassConfig | undefined): number {
  return Math.max(1, Math.ceil(largestPacket(c) / UNIT_BYTES));
}

/** Drops entries of class `i` and renumbers the later classes. */
export function renumber(entries: readonly TableEntry[], i: number): TableEntry[] {
  return entries.filter((e) => e.class !== i).map((e) => (e.class > i ? { ...e, class: e.class - 1 } : e));
}

/** `list` without item `i`. */
export function dropItem<T>(list: readonly T[], i: number): T[] {
  return list.filter((_, k) => k !== i);
}
