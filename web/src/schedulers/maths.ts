// Arithmetic the scheduler modules share: shares from weights, integer apportionment,
// smooth interleaving, packet sizes of a class. Used to build starting values when the
// kind is switched or a class is added; the engine computes every result.
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

/**
 * Splits `total` into integers proportional to `shares` (largest remainder), giving at
 * least `min` to every class with a positive share while that is possible.
 */
export function apportion(shares: readonly number[], total: number, min = 1): number[] {
  const s = normalise(shares);
  const positive = s.filter((x) => x > 0).length;
  const floor = positive * min <= total ? min : 0;
  const out = s.map((x) => (x > 0 ? Math.max(floor, Math.floor(x * total)) : 0));
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = s
    .map((x, i) => ({ i, r: x * total - Math.floor(x * total) }))
    .filter(({ i }) => (s[i] ?? 0) > 0)
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; left > 0 && order.length > 0; k++, left--) {
    const i = order[k % order.length]?.i ?? 0;
    out[i] = (out[i] ?? 0) + 1;
  }
  // Over-allocation (from the minimum): take back from the largest.
  while (left < 0) {
    let big = 0;
    out.forEach((v, i) => {
      if (v > (out[big] ?? 0)) big = i;
    });
    if ((out[big] ?? 0) <= floor) break;
    out[big] = (out[big] ?? 0) - 1;
    left++;
  }
  return out;
}

/**
 * Interleaves classes with the given entry counts smoothly (each slot goes to the class
 * furthest behind its ideal position; ties to the lower class index): a local stand-in
 * for the engine's service lists, used when converting between kinds.
 */
export function interleave(counts: readonly number[]): number[] {
  const total = counts.reduce((a, b) => a + Math.max(0, b), 0);
  const given = counts.map(() => 0);
  const out: number[] = [];
  for (let k = 0; k < total; k++) {
    let best = -1;
    let bestLag = -Infinity;
    counts.forEach((c, i) => {
      if (c <= 0 || (given[i] ?? 0) >= c) return;
      const lag = ((k + 1) * c) / total - (given[i] ?? 0);
      if (lag > bestLag + 1e-12) {
        bestLag = lag;
        best = i;
      }
    });
    if (best < 0) break;
    given[best] = (given[best] ?? 0) + 1;
    out.push(best);
  }
  return out;
}

/** Sum of entry weights per class (entries naming no class of the `n` are left out). */
export function entryWeightSums(entries: readonly TableEntry[], n: number): number[] {
  const sums = new Array<number>(n).fill(0);
  for (const e of entries) {
    if (Number.isInteger(e.class) && e.class >= 0 && e.class < n) sums[e.class] = (sums[e.class] ?? 0) + usable(e.weight);
  }
  return sums;
}

/** Entries with one per positive weight, class = index. */
export function entriesFromWeights(weights: readonly number[]): TableEntry[] {
  return weights.flatMap((w, i) => (w > 0 ? [{ class: i, weight: w }] : []));
}

/** Scales entry weights down so the largest is at most `max` (at least 1 each). */
export function capWeights(entries: readonly TableEntry[], max: number): TableEntry[] {
  const top = Math.max(0, ...entries.map((e) => usable(e.weight)));
  const f = top > max ? max / top : 1;
  return entries.map((e) => ({ class: e.class, weight: Math.max(1, Math.round(usable(e.weight) * f)) }));
}

/** Drops entries of class `i` and renumbers the later classes. */
export function renumber(entries: readonly TableEntry[], i: number): TableEntry[] {
  return entries.filter((e) => e.class !== i).map((e) => (e.class > i ? { ...e, class: e.class - 1 } : e));
}

/** `list` without item `i`. */
export function dropItem<T>(list: readonly T[], i: number): T[] {
  return list.filter((_, k) => k !== i);
}

/** Priorities by class index: class 0 highest (n − 1), clamped to 0..max. */
export function indexPriorities(n: number, max: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.max(0, Math.min(max, n - 1 - i)));
}
