// The admission table of a study's sweep: connections requested / admitted / refused per
// connection class at the highest load, per configuration or for all when they agree, and
// its CSV. Pure functions.
import { csvField } from '../charts/export';
import type { RunSummary } from './data';

/** One row of the admission table: a class, and per scheduler (or for all) its counts over the seeds. */
export interface AdmissionRow {
  className: string;
  /** Index of the scheduler, or null when the counts are the same for every scheduler. */
  scheduler: number | null;
  /** Runs the counts come from. */
  runs: number;
  requested: CountRange;
  admitted: CountRange;
  refused: CountRange;
}

/** A count over several runs: mean, least and most. */
export interface CountRange {
  mean: number;
  min: number;
  max: number;
}

const range = (v: readonly number[]): CountRange => ({
  mean: v.reduce((a, b) => a + b, 0) / Math.max(1, v.length),
  min: Math.min(...v),
  max: Math.max(...v),
});

/**
 * Connections requested / admitted / refused per connection class at the highest load.
 * Admission does not depend on the scheduler (it happens before any packet moves): when
 * every scheduler's runs have the same counts seed by seed, one row per class with
 * `scheduler: null`; otherwise one row per class and scheduler.
 */
export function admissionRows(labels: readonly string[], runs: ReadonlyMap<number, readonly RunSummary[]>): { rows: AdmissionRow[]; sameForAll: boolean } {
  const first = [...runs.values()].find((r) => r.length > 0)?.[0] ?? [];
  const classes = first.flatMap((cls, c) => (cls.connections ? [{ name: cls.name, c }] : []));
  const counts = (s: number, c: number) => (runs.get(s) ?? []).flatMap((r) => {
      const k = r[c]?.connections;
      return k ? [k] : [];
    });
  const key = (s: number, c: number) => JSON.stringify(counts(s, c));
  const present = labels.map((_, s) => s).filter((s) => (runs.get(s) ?? []).length > 0);
  const sameForAll = present.length > 0 && classes.every(({ c }) => present.every((s) => key(s, c) === key(present[0] ?? 0, c)));
  const row = (name: string, c: number, s: number, scheduler: number | null): AdmissionRow[] => {
    const list = counts(s, c);
    if (list.length === 0) return [];
    return [
      {
        className: name,
        scheduler,
        runs: list.length,
        requested: range(list.map((x) => x.requested)),
        admitted: range(list.map((x) => x.admitted)),
        refused: range(list.map((x) => x.refused)),
      },
    ];
  };
  const rows = classes.flatMap(({ name, c }) =>
    sameForAll ? row(name, c, present[0] ?? 0, null) : present.flatMap((s) => row(name, c, s, s)),
  );
  return { rows, sameForAll };
}

/** A count over runs as text: the number when every run agrees, else the mean (one decimal at most) and the range ("1234.5 (1200–1250)"). */
export function formatCount(r: CountRange): string {
  if (r.min === r.max) return String(r.min);
  return `${Math.round(r.mean * 10) / 10} (${r.min}–${r.max})`;
}

/** CSV of the admission table. */
export function admissionCsv(labels: readonly string[], rows: readonly AdmissionRow[]): string {
  const lines = ['class,scheduler,runs,requested_mean,requested_min,requested_max,admitted_mean,admitted_min,admitted_max,refused_mean,refused_min,refused_max'];
  for (const r of rows) {
    lines.push(
      [
        csvField(r.className),
        csvField(r.scheduler === null ? 'all' : (labels[r.scheduler] ?? '')),
        r.runs,
        ...[r.requested, r.admitted, r.refused].flatMap((c) => [c.mean, c.min, c.max]),
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
