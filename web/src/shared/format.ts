// Number formatting for results: one latency unit per table (so columns compare at a
// glance), percentages of the link, grouped counts. Fixed locale so output is stable.
import { chooseTimeUnit, type TimeScale } from '../charts/units';
import type { RunResults } from '../generated';

/** A time unit (shared with the charts) plus the decimals shown in the table. */
export interface LatencyUnit extends TimeScale {
  /** Decimals shown. */
  decimals: number;
}

/**
 * The unit for a set of latencies (ns): the largest unit in which the largest value is at
 * least 1, with enough decimals that the smallest non-zero value keeps two significant
 * digits (between 1 and 3 decimals; none for ns).
 */
export function chooseLatencyUnit(valuesNs: readonly (number | null)[]): LatencyUnit {
  const finite = valuesNs.filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
  if (finite.length === 0) return { unit: 'µs', factor: 1e3, decimals: 1 };
  const max = Math.max(...finite);
  const min = Math.min(...finite);
  const base = chooseTimeUnit(max);
  if (base.unit === 'ns') return { ...base, decimals: 0 };
  const smallest = min / base.factor;
  const decimals = Math.min(3, Math.max(1, Math.ceil(-Math.log10(smallest)) + 1));
  return { ...base, decimals };
}

/** A latency in the given unit, without the unit ("13.6"); "—" when there is none. */
export function formatLatency(ns: number | null, unit: LatencyUnit): string {
  if (ns === null || !Number.isFinite(ns)) return '—';
  return (ns / unit.factor).toFixed(unit.decimals);
}

/** A fraction as a percentage with two decimals ("35.00 %"). */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return '—';
  return `${(fraction * 100).toFixed(2)} %`;
}

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count with thousands separators ("1,151,901"). */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? COUNT.format(n) : '—';
}

/** A wall-clock duration in ms as seconds ("0.42 s"). */
export function formatElapsed(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** The latency unit of a whole results table (mean, p50, p99, max of every class). */
export function resultsLatencyUnit(results: RunResults): LatencyUnit {
  return chooseLatencyUnit(
    results.classes.flatMap((c) => [c.latency_ns.mean, c.latency_ns.p50, c.latency_ns.p99, c.latency_ns.max]),
  );
}

/** Parses the engine's results JSON (once per run). */
export function parseResults(json: string): RunResults {
  return JSON.parse(json) as RunResults;
}
