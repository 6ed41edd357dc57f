// What the designer shows about a table: the engine's evaluation (shares, distances,
// bounds, violations) and small derived texts.
import type { Design, DesignEntry } from '../generated';

/** One class of an evaluated table (the engine's `ClassEvaluation`). */
export interface ClassEvaluation {
  name: string;
  entries: number;
  total_weight: number | null;
  min_share: number;
  max_share: number;
  share: number;
  wanted_share: number;
  max_distance: number | null;
  /** The requested distance, when the engine reports it. */
  distance?: number | null;
  bound_ns?: number | null;
}

/** One broken constraint. */
export interface Violation {
  class?: string | number | null;
  entry?: number | null;
  rule?: string;
  message: string;
}

/** An evaluated table (the engine's `Evaluation`). */
export interface Evaluation {
  link_rate_gbps?: number | null;
  pool: number | null;
  max_entry_weight: number | null;
  classes: ClassEvaluation[];
  violations: Violation[];
}

/** The evaluation of a table exactly as `design` produced it (the design reports the same numbers). */
export function evaluationOfDesign(design: Design): Evaluation {
  return {
    pool: design.pool,
    max_entry_weight: design.max_entry_weight,
    classes: design.classes.map((c) => ({
      name: c.name,
      entries: c.entries,
      total_weight: c.total_weight,
      min_share: c.min_share,
      max_share: c.max_share,
      share: c.share,
      wanted_share: c.wanted_share,
      max_distance: c.max_distance,
      distance: c.distance,
    })),
    violations: [],
  };
}

/** The weights of a class's entries, as a short text: "3", "48–49", or "—" without weights. */
export function entryWeightsText(table: readonly DesignEntry[], name: string): string {
  const weights = table.filter((e) => e.class === name && e.weight !== null).map((e) => e.weight as number);
  if (weights.length === 0) return '—';
  const lo = Math.min(...weights);
  const hi = Math.max(...weights);
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

/** A share as a short decimal (up to 6 significant digits, no trailing zeros). */
export function shareText(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return String(Number(x.toPrecision(6)));
}

/** A time in ns as µs or ns text. */
export function nsText(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return '—';
  return ns >= 1000 ? `${Number((ns / 1000).toPrecision(4))} µs` : `${Number(ns.toPrecision(4))} ns`;
}

/** One sentence about an evaluation, for the live region. */
export function evaluationSummary(e: Evaluation): string {
  const n = e.violations.length;
  if (n === 0) return `Table evaluated: every constraint is met (${e.classes.length} classes).`;
  return `Table evaluated: ${n === 1 ? '1 constraint is' : `${n} constraints are`} violated. ${e.violations
    .slice(0, 3)
    .map((v) => v.message)
    .join(' ')}`;
}
