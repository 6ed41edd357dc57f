// Shaping pinned runs for the comparison views: CDF series (colour by class, dash by
// run), grouped throughput bars (per class, one bar per run), the numbers table and CSV.
import type { CdfSeries } from '../charts/CdfChart';
import { csvField } from '../charts/export';
import { colorFor } from '../charts/palette';
import type { RunResults } from '../generated';
import { schedulerName } from '../schedulers/registry';

/** One run pinned to the comparison. */
export interface ComparedRun {
  /** Unique id (stable while the run is pinned). */
  id: number;
  /** Legend text (editable). */
  label: string;
  /** The results. */
  results: RunResults;
}

/** Line dashes of runs 0, 1, 2, ... (solid first). */
export const RUN_DASHES: readonly (string | undefined)[] = [undefined, '7 4', '2 3', '10 3 2 3', '4 4', '1 5'];

/** The dash of run `k` (cycles). */
export function dashFor(k: number): string | undefined {
  return RUN_DASHES[((k % RUN_DASHES.length) + RUN_DASHES.length) % RUN_DASHES.length];
}

/** Default label of a run: scenario name + scheduler kind. */
export function runLabel(results: Pick<RunResults, 'scenario' | 'scheduler'>): string {
  return `${results.scenario} · ${schedulerName(results.scheduler.kind)}`;
}

/** A label not yet used by `runs` (adds " (2)", " (3)", ...). */
export function uniqueLabel(label: string, runs: readonly Pick<ComparedRun, 'label'>[]): string {
  const used = new Set(runs.map((r) => r.label));
  if (!used.has(label)) return label;
  for (let k = 2; ; k++) if (!used.has(`${label} (${k})`)) return `${label} (${k})`;
}

/** Class names across runs, in class order (the first run's names, longer runs add theirs). */
export function classNames(runs: readonly ComparedRun[]): string[] {
  const out: string[] = [];
  for (const r of runs) r.results.classes.forEach((c, i) => (out[i] ??= c.name));
  return out;
}

/** One CDF curve per (run, class): colour of the class, dash of the run; labelled class first (legends truncate). */
export function compareCdfSeries(runs: readonly ComparedRun[]): CdfSeries[] {
  return runs.flatMap((r, k) =>
    r.results.classes.map((c, i) => ({
      id: `run${r.id}:${i}`,
      label: `${c.name} · ${r.label}`,
      points: c.latency_ns.cdf,
      color: colorFor(i),
      dash: dashFor(k),
    })),
  );
}

/** A group of bars: one class, one bar per run (null where the run lacks the class). */
export interface BarGroup {
  classIndex: number;
  name: string;
  bars: { run: number; label: string; value: number | null }[];
}

/** Throughput (fraction of the link) grouped by class, one bar per run. */
export function throughputGroups(runs: readonly ComparedRun[]): BarGroup[] {
  return classNames(runs).map((name, i) => ({
    classIndex: i,
    name,
    bars: runs.map((r, k) => {
      const v = r.results.classes[i]?.throughput;
      return { run: k, label: r.label, value: v !== undefined && Number.isFinite(v) ? v : null };
    }),
  }));
}

/** One row of the numbers table. */
export interface CompareRow {
  run: number;
  runLabel: string;
  classIndex: number;
  className: string;
  offered: number;
  throughput: number;
  mean: number | null;
  p99: number | null;
  max: number | null;
}

/** Rows run × class, runs in order. */
export function compareRows(runs: readonly ComparedRun[]): CompareRow[] {
  return runs.flatMap((r, k) =>
    r.results.classes.map((c, i) => ({
      run: k,
      runLabel: r.label,
      classIndex: i,
      className: c.name,
      offered: c.offered,
      throughput: c.throughput,
      mean: c.latency_ns.mean,
      p99: c.latency_ns.p99,
      max: c.latency_ns.max,
    })),
  );
}

const num = (v: number | null): string => (v === null || !Number.isFinite(v) ? '' : String(v));

/** The numbers table as CSV (RFC 4180, CRLF; latencies in ns, loads as fractions). */
export function compareCsv(runs: readonly ComparedRun[]): string {
  const lines = ['run,scheduler,class,offered,throughput,mean_ns,p99_ns,max_ns'];
  runs.forEach((r) => {
    r.results.classes.forEach((c) => {
      lines.push(
        [
          csvField(r.label),
          csvField(r.results.scheduler.kind),
          csvField(c.name),
          num(c.offered),
          num(c.throughput),
          num(c.latency_ns.mean),
          num(c.latency_ns.p99),
          num(c.latency_ns.max),
        ].join(','),
      );
    });
  });
  return `${lines.join('\r\n')}\r\n`;
}
