// What the designer shows about a table: the engine's evaluation (shares, distances,
// bounds, violations) and small derived texts.
import type { DesignEntry, Evaluation, Violation } from '../generated';

export type { ClassEvaluation, Evaluation, Violation } from '../generated';

/** Violation rules that are advice, not a broken constraint. */
export const ADVICE_RULES: readonly string[] = ['weights_unequal'];

/** The violations that break a constraint, and the advice. */
export function splitViolations(violations: readonly Violation[]): { errors: Violation[]; advice: Violation[] } {
  return {
    errors: violations.filter((v) => !ADVICE_RULES.includes(v.rule)),
    advice: violations.filter((v) => ADVICE_RULES.includes(v.rule)),
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
  const { errors } = splitViolations(e.violations);
  const n = errors.length;
  if (n === 0) return `Table evaluated: every constraint is met (${e.classes.length} classes).`;
  return `Table evaluated: ${n === 1 ? '1 constraint is' : `${n} constraints are`} violated. ${errors
    .slice(0, 3)
    .map((v) => v.message)
    .join(' ')}`;
}
