// Arithmetic the scheduler modules share: shares from weights, packet sizes of a class,
// list and table edits when a class is added or removed. A kind switch asks the engine
// (`starting_scheduler`: its apportionment and interleaving, which the web keeps no copy
// of); the engine computes every result.
import type { ClassConfig, TableEntry } from '../generated';
import { PARETO_STABLE_TAIL } from '../generated/mathsCases';
import { UNIT_BYTES } from './limits';

/** `w` when it is a finite positive number, else 0. */
export const usable = (w: number): number => (Number.isFinite(w) && w > 0 ? w : 0);

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

/**
 * Mean of a bounded Pareto on `[lo, hi]` with tail index `a`: the engine's formula
 * (`bounded_pareto_mean` in engine/core/src/scenario/mod.rs), repeated here so share
 * tables update as the user types; `maths.test.ts` checks it against the engine's
 * answers in `generated/mathsCases.ts`.
 */
export function boundedParetoMean(lo: number, hi: number, a: number): number {
  if (hi <= lo) return lo;
  const tail = 1 - (lo / hi) ** a;
  if (Math.abs(a - 1) < 1e-12) return (lo * Math.log(hi / lo)) / tail;
  if (tail > PARETO_STABLE_TAIL) return (a * lo ** a * (hi ** (1 - a) - lo ** (1 - a))) / ((1 - a) * tail);
  const l = Math.log(hi / lo);
  return (a * lo * Math.expm1((1 - a) * l)) / ((1 - a) * -Math.expm1(-a * l));
}

/** Mean packet size of a class in bytes (for the byte share of an AS basic table), as the engine's `SizeConfig::mean_bytes`. */
export function meanPacketBytes(c: ClassConfig): number {
  const size = c.traffic.size;
  switch (size.kind) {
    case 'fixed':
      return size.bytes;
    case 'uniform':
      return (size.min_bytes + size.max_bytes) / 2;
    case 'pareto': {
      const { min_bytes: l, max_bytes: h, shape: a } = size;
      const m = boundedParetoMean(l, h, a);
      // Only input the engine refuses (a shape that is no number) gets here.
      return Number.isFinite(m) && m > 0 ? m : (l + h) / 2;
    }
  }
}

/** Shares (fractions summing to 1, or all 0) of `weights`. */
export function normalise(weights: readonly number[]): number[] {
  const total = weights.reduce((a, w) => a + usable(w), 0);
  return weights.map((w) => (total > 0 ? usable(w) / total : 0));
}

/** Sum of entry weights per class (entries naming no class of the `n` are left out). */
export function entryWeightSums(entries: readonly TableEntry[], n: number): number[] {
  const sums = new Array<number>(n).fill(0);
  for (const e of entries) {
    if (Number.isInteger(e.class) && e.class >= 0 && e.class < n) sums[e.class] = (sums[e.class] ?? 0) + usable(e.weight);
  }
  return sums;
}

/** Drops entries of class `i` and renumbers the later classes. */
export function renumber(entries: readonly TableEntry[], i: number): TableEntry[] {
  return entries.filter((e) => e.class !== i).map((e) => (e.class > i ? { ...e, class: e.class - 1 } : e));
}

/** `list` without item `i`. */
export function dropItem<T>(list: readonly T[], i: number): T[] {
  return list.filter((_, k) => k !== i);
}
