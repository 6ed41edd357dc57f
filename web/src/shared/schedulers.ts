// Scheduler configurations as the editor sees them: the kinds with human names, the
// bandwidth share each configuration gives every class, conversion from one kind to
// another that keeps those shares, and keeping per-class lists in step with the classes.
// Pure functions: inputs are never mutated.
import type { ClassConfig, SchedulerConfig, TableEntry } from '../generated';

/** A scheduler kind (`SchedulerConfig['kind']`). */
export type SchedulerKind = SchedulerConfig['kind'];

/** The configuration of one kind. */
export type ConfigOf<K extends SchedulerKind> = Extract<SchedulerConfig, { kind: K }>;

/** The fair-queueing kinds (one relative weight per class). */
export type FairKind = 'scfq' | 'wfq' | 'wf2q_plus' | 'sfq';

/** Every kind, in menu order, with its human name. */
export const SCHEDULER_KINDS: readonly { kind: SchedulerKind; label: string }[] = [
  { kind: 'as_basic', label: 'AS basic table (Advanced Switching)' },
  { kind: 'iba', label: 'IBA weighted tables (InfiniBand VLArb)' },
  { kind: 'dtable', label: 'DTable (Deficit Table)' },
  { kind: 'drr', label: 'DRR (Deficit Round Robin)' },
  { kind: 'scfq', label: 'SCFQ (Self-Clocked Fair Queueing)' },
  { kind: 'wfq', label: 'WFQ (Weighted Fair Queueing)' },
  { kind: 'wf2q_plus', label: 'WF²Q+ (Worst-case Fair WFQ+)' },
  { kind: 'sfq', label: 'SFQ (Start-time Fair Queueing)' },
  { kind: 'strict_priority', label: 'Strict priority' },
  { kind: 'fifo', label: 'FIFO (first come, first served)' },
  { kind: 'edf', label: 'EDF (Earliest Deadline First)' },
];

/** Short names (for labels of runs and legends). */
export const SCHEDULER_SHORT: Readonly<Record<SchedulerKind, string>> = {
  as_basic: 'AS basic',
  iba: 'IBA',
  dtable: 'DTable',
  drr: 'DRR',
  scfq: 'SCFQ',
  wfq: 'WFQ',
  wf2q_plus: 'WF²Q+',
  sfq: 'SFQ',
  strict_priority: 'Strict priority',
  fifo: 'FIFO',
  edf: 'EDF',
};

/** The short human name of a kind (the kind itself if unknown). */
export function schedulerName(kind: string): string {
  return (SCHEDULER_SHORT as Record<string, string>)[kind] ?? kind;
}

/** Table sizes of an AS basic table. */
export const AS_TABLE_SIZES: readonly number[] = [32, 64, 128, 256, 512, 1024];
/** Largest IBA entry weight and high limit. */
export const IBA_MAX = 255;
/** Most entries of an IBA table. */
export const IBA_MAX_ENTRIES = 64;
/** Largest DRR quantum in bytes. */
export const MAX_QUANTUM_BYTES = 16_777_216;
/** Largest EDF deadline in ns. */
export const MAX_DEADLINE_NS = 1e12;
/** Largest strict priority. */
export const MAX_PRIORITY = 255;
/** Bytes per credit / IBA weight unit. */
const UNIT = 64;

export function isFairKind(kind: SchedulerKind): kind is FairKind {
  return kind === 'scfq' || kind === 'wfq' || kind === 'wf2q_plus' || kind === 'sfq';
}

const usable = (w: number): number => (Number.isFinite(w) && w > 0 ? w : 0);

function largestPacket(c: ClassConfig | undefined): number {
  if (!c) return 2048;
  const size = c.traffic.size;
  const b = size.kind === 'fixed' ? size.bytes : size.max_bytes;
  return Number.isFinite(b) && b > 0 ? b : 2048;
}

/** Mean packet size of a class in bytes (for the byte share of an AS basic table). */
export function meanPacketBytes(c: ClassConfig): number {
  const size = c.traffic.size;
  switch (size.kind) {
    case 'fixed':
      return size.bytes;
    case 'uniform':
      return (size.min_bytes + size.max_bytes) / 2;
    case 'pareto': {
      // Mean of a bounded Pareto (L, H, alpha), alpha != 1.
      const { min_bytes: l, max_bytes: h, shape: a } = size;
      if (!(l > 0 && h > l && a > 0) || Math.abs(a - 1) < 1e-9) return (l + h) / 2;
      const num = l ** a * (h ** (1 - a) - l ** (1 - a)) * a;
      const den = (1 - a) * (1 - (l / h) ** a);
      const m = num / den;
      return Number.isFinite(m) && m > 0 ? m : (l + h) / 2;
    }
  }
}

/**
 * The relative weight of every class under `config` (not normalised), or null when the
 * scheduler does not divide bandwidth by weights (strict priority, FIFO, EDF).
 * DTable and IBA: sum of entry weights (IBA: both tables); AS basic: entries × mean packet
 * size (the table serves one packet per entry, so bytes follow packet sizes); DRR: quanta;
 * fair queueing: weights.
 */
export function classWeights(config: SchedulerConfig, classes: readonly ClassConfig[]): number[] | null {
  const n = classes.length;
  const sums = new Array<number>(n).fill(0);
  const addEntries = (entries: readonly TableEntry[]) => {
    for (const e of entries) {
      if (Number.isInteger(e.class) && e.class >= 0 && e.class < n) sums[e.class] = (sums[e.class] ?? 0) + usable(e.weight);
    }
  };
  switch (config.kind) {
    case 'dtable':
      addEntries(config.table);
      return sums;
    case 'iba':
      addEntries(config.high);
      addEntries(config.low);
      return sums;
    case 'as_basic':
      for (const c of config.table) {
        const cls = classes[c];
        if (Number.isInteger(c) && cls) sums[c] = (sums[c] ?? 0) + usable(meanPacketBytes(cls));
      }
      return sums;
    case 'drr':
      return classes.map((_, i) => usable(config.quanta_bytes[i] ?? 0));
    case 'scfq':
    case 'wfq':
    case 'wf2q_plus':
    case 'sfq':
      return classes.map((_, i) => usable(config.weights[i] ?? 0));
    case 'strict_priority':
    case 'fifo':
    case 'edf':
      return null;
  }
}

/** Shares (fractions summing to 1, or all 0) of `weights`. */
export function normalise(weights: readonly number[]): number[] {
  const total = weights.reduce((a, w) => a + usable(w), 0);
  return weights.map((w) => (total > 0 ? usable(w) / total : 0));
}

/** Bandwidth share of every class under the scheduler (null when it has no shares). */
export function schedulerShares(config: SchedulerConfig, classes: readonly ClassConfig[]): number[] | null {
  const w = classWeights(config, classes);
  return w ? normalise(w) : null;
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

/** Weights the classes get by default when a kind without shares is left: equal. */
function sharesForConversion(config: SchedulerConfig, classes: readonly ClassConfig[]): number[] {
  const w = classWeights(config, classes);
  const shares = w ? normalise(w) : [];
  if (shares.some((x) => x > 0)) return shares;
  return classes.map(() => 1 / Math.max(1, classes.length));
}

/** Table entries of a table scheduler (DTable table, IBA high + low), else null. */
function tableEntries(config: SchedulerConfig): TableEntry[] | null {
  if (config.kind === 'dtable') return config.table;
  if (config.kind === 'iba') return [...config.high, ...config.low];
  return null;
}

/** Scales entry weights down so the largest is at most `max` (at least 1 each). */
function capWeights(entries: readonly TableEntry[], max: number): TableEntry[] {
  const top = Math.max(0, ...entries.map((e) => usable(e.weight)));
  const f = top > max ? max / top : 1;
  return entries.map((e) => ({ class: e.class, weight: Math.max(1, Math.round(usable(e.weight) * f)) }));
}

/** Priority order of the classes: class index order unless EDF deadlines say otherwise. */
function priorityRanks(config: SchedulerConfig, n: number): number[] {
  if (config.kind === 'strict_priority') return Array.from({ length: n }, (_, i) => config.priorities[i] ?? 0);
  if (config.kind === 'edf') {
    // Shorter deadline = higher priority.
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => (config.deadlines_ns[a] ?? Infinity) - (config.deadlines_ns[b] ?? Infinity) || a - b,
    );
    const prio = new Array<number>(n).fill(0);
    order.forEach((cls, rank) => (prio[cls] = Math.max(0, Math.min(MAX_PRIORITY, n - 1 - rank))));
    return prio;
  }
  return Array.from({ length: n }, (_, i) => Math.max(0, Math.min(MAX_PRIORITY, n - 1 - i)));
}

/**
 * A configuration of `kind` that keeps what carries over from `from`: per-class shares
 * (table weights ↔ quanta ↔ fair-queueing weights ↔ AS entry counts), table entries
 * between DTable and IBA, and the priority order between strict priority and EDF.
 * `rateGbps` sizes EDF deadlines (time to send a class's largest packet at its share).
 */
export function convertScheduler(
  from: SchedulerConfig,
  kind: SchedulerKind,
  classes: readonly ClassConfig[],
  rateGbps: number,
): SchedulerConfig {
  if (from.kind === kind) return from;
  const n = classes.length;
  if (isFairKind(kind) && isFairKind(from.kind) && 'weights' in from) return { kind, weights: [...from.weights] };
  const shares = sharesForConversion(from, classes);
  const rawWeights = classWeights(from, classes);
  const entries = tableEntries(from);
  const mtuCredits = Math.max(1, ...classes.map((c) => Math.ceil(largestPacket(c) / UNIT)));
  switch (kind) {
    case 'dtable': {
      if (entries && entries.length > 0) return { kind, table: entries.map((e) => ({ ...e, weight: Math.max(1, usable(e.weight)) })) };
      // One entry per class; weights in credits, the whole table worth n largest packets.
      const weights = apportion(shares, Math.max(n, n * mtuCredits));
      return { kind, table: weights.flatMap((w, i) => (w > 0 ? [{ class: i, weight: w }] : [])) };
    }
    case 'iba': {
      const high = from.kind === 'iba' ? from.high : [];
      if (entries && entries.length > 0) {
        const low = capWeights(from.kind === 'iba' ? from.low : entries, IBA_MAX).slice(0, IBA_MAX_ENTRIES);
        return { kind, high: capWeights(high, IBA_MAX), low, high_limit: IBA_MAX };
      }
      const weights = apportion(shares, Math.max(n, n * Math.min(IBA_MAX, mtuCredits)));
      const low = capWeights(
        weights.flatMap((w, i) => (w > 0 ? [{ class: i, weight: w }] : [])),
        IBA_MAX,
      );
      return { kind, high: [], low, high_limit: IBA_MAX };
    }
    case 'as_basic': {
      // AS serves one packet per entry: entries in proportion to share / mean packet size.
      const perPacket = shares.map((s, i) => {
        const c = classes[i];
        return c ? s / Math.max(1, meanPacketBytes(c)) : 0;
      });
      const size = AS_TABLE_SIZES.find((z) => z >= 4 * n) ?? 1024;
      return { kind, table: interleave(apportion(perPacket, size)) };
    }
    case 'drr': {
      // Quanta in proportion to the shares, the smallest positive share getting its class's
      // largest packet (so every class can send a packet each round).
      const min = Math.min(...shares.filter((s) => s > 0));
      const base = Math.max(
        ...shares.map((s, i) => (s > 0 ? (largestPacket(classes[i]) * min) / s : 0)),
        1,
      );
      const quanta = shares.map((s) =>
        s > 0 ? Math.min(MAX_QUANTUM_BYTES, Math.max(1, Math.round((s / min) * base))) : Math.min(MAX_QUANTUM_BYTES, Math.round(base)),
      );
      return { kind, quanta_bytes: quanta };
    }
    case 'scfq':
    case 'wfq':
    case 'wf2q_plus':
    case 'sfq': {
      // Keep the source's own numbers when they are whole (credits, quanta), else percentages.
      const w = rawWeights && rawWeights.some((x) => x > 0) ? rawWeights : shares.map((s) => s * 100);
      const positive = w.filter((x) => x > 0);
      const fallback = positive.length > 0 ? Math.min(...positive) : 1;
      return { kind, weights: w.map((x) => Number((x > 0 ? x : fallback).toPrecision(6))) };
    }
    case 'strict_priority':
      return { kind, priorities: priorityRanks(from, n) };
    case 'fifo':
      return { kind };
    case 'edf': {
      const prio = from.kind === 'strict_priority' ? from.priorities : null;
      const rate = Number.isFinite(rateGbps) && rateGbps > 0 ? rateGbps : 1;
      const deadlines = classes.map((c, i) => {
        if (prio) {
          // Higher priority, shorter deadline: 1 µs per rank below the top.
          const top = Math.max(...prio);
          return Math.max(1, (top - (prio[i] ?? 0) + 1) * 1000);
        }
        const share = shares[i] ?? 0;
        // Time to send the class's largest packet at its share of the link (bits / (Gb/s) = ns).
        const ns = share > 0 ? Math.ceil((largestPacket(c) * 8) / (share * rate)) : 1_000_000;
        return Math.min(MAX_DEADLINE_NS, Math.max(1, ns));
      });
      return { kind, deadlines_ns: deadlines };
    }
  }
}

/** Default per-class value of a new class for each per-class list. */
export function withClassAdded(config: SchedulerConfig, newClass: ClassConfig, n: number): SchedulerConfig {
  const i = n; // index of the new class
  const credits = Math.max(1, Math.ceil(largestPacket(newClass) / UNIT));
  switch (config.kind) {
    case 'dtable':
      return { ...config, table: [...config.table, { class: i, weight: 16 }] };
    case 'iba':
      return { ...config, low: [...config.low, { class: i, weight: Math.min(IBA_MAX, credits) }] };
    case 'as_basic': {
      // Keep the size: the class with the most entries gives its last one to the new class.
      const counts = new Map<number, number>();
      for (const c of config.table) counts.set(c, (counts.get(c) ?? 0) + 1);
      let donor = -1;
      let most = 1;
      for (const [c, k] of counts) if (k > most || (k === most && donor >= 0 && c < donor)) [donor, most] = [c, k];
      if (donor < 0) return config;
      const at = config.table.lastIndexOf(donor);
      return { ...config, table: config.table.map((c, j) => (j === at ? i : c)) };
    }
    case 'drr':
      return { ...config, quanta_bytes: [...config.quanta_bytes, largestPacket(newClass)] };
    case 'scfq':
    case 'wfq':
    case 'wf2q_plus':
    case 'sfq': {
      const w = config.weights.filter((x) => Number.isFinite(x) && x > 0);
      return { ...config, weights: [...config.weights, w.length > 0 ? Math.min(...w) : 1] };
    }
    case 'strict_priority':
      return { ...config, priorities: [...config.priorities, 0] };
    case 'fifo':
      return config;
    case 'edf':
      return { ...config, deadlines_ns: [...config.deadlines_ns, 100_000] };
  }
}

function renumber(entries: readonly TableEntry[], i: number): TableEntry[] {
  return entries.filter((e) => e.class !== i).map((e) => (e.class > i ? { ...e, class: e.class - 1 } : e));
}

/**
 * Drops class `i` from the scheduler (its entries and list items) and renumbers the later
 * classes. An AS basic table keeps its size: the removed class's entries go to the
 * remaining classes in turn.
 */
export function withClassRemoved(config: SchedulerConfig, i: number, n: number): SchedulerConfig {
  const drop = <T,>(list: readonly T[]) => list.filter((_, k) => k !== i);
  switch (config.kind) {
    case 'dtable':
      return { ...config, table: renumber(config.table, i) };
    case 'iba':
      return { ...config, high: renumber(config.high, i), low: renumber(config.low, i) };
    case 'as_basic': {
      const left = n - 1;
      let turn = 0;
      return {
        ...config,
        table: config.table.map((c) => {
          if (c < i) return c;
          if (c > i) return c - 1;
          return left > 0 ? turn++ % left : 0;
        }),
      };
    }
    case 'drr':
      return { ...config, quanta_bytes: drop(config.quanta_bytes) };
    case 'scfq':
    case 'wfq':
    case 'wf2q_plus':
    case 'sfq':
      return { ...config, weights: drop(config.weights) };
    case 'strict_priority':
      return { ...config, priorities: drop(config.priorities) };
    case 'fifo':
      return config;
    case 'edf':
      return { ...config, deadlines_ns: drop(config.deadlines_ns) };
  }
}

/** The per-class list of a kind that has one (its JSON field name), else null. */
export function perClassField(kind: SchedulerKind): 'quanta_bytes' | 'weights' | 'priorities' | 'deadlines_ns' | null {
  if (kind === 'drr') return 'quanta_bytes';
  if (isFairKind(kind)) return 'weights';
  if (kind === 'strict_priority') return 'priorities';
  if (kind === 'edf') return 'deadlines_ns';
  return null;
}

/** Sets item `i` of the per-class list of the scheduler (no-op for kinds without one). */
export function setPerClass(config: SchedulerConfig, i: number, value: number): SchedulerConfig {
  const set = (list: readonly number[]) => list.map((v, k) => (k === i ? value : v));
  switch (config.kind) {
    case 'drr':
      return { ...config, quanta_bytes: set(config.quanta_bytes) };
    case 'scfq':
    case 'wfq':
    case 'wf2q_plus':
    case 'sfq':
      return { ...config, weights: set(config.weights) };
    case 'strict_priority':
      return { ...config, priorities: set(config.priorities) };
    case 'edf':
      return { ...config, deadlines_ns: set(config.deadlines_ns) };
    default:
      return config;
  }
}

/** Entry counts per class of a table (for "fill from weights"). */
export function entryCounts(config: SchedulerConfig, n: number): number[] {
  const counts = new Array<number>(n).fill(0);
  const bump = (c: number) => {
    if (Number.isInteger(c) && c >= 0 && c < n) counts[c] = (counts[c] ?? 0) + 1;
  };
  if (config.kind === 'dtable') config.table.forEach((e) => bump(e.class));
  else if (config.kind === 'iba') config.low.forEach((e) => bump(e.class));
  else if (config.kind === 'as_basic') config.table.forEach(bump);
  return counts;
}
