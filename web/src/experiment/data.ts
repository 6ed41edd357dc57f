// A study's sweep as data: the plan (configuration × load × seed runs), what each run
// keeps, per-point means with 90% confidence half-widths (computed by the engine, passed
// in), pooled latency CDFs, the improvement of the baseline configuration over the others
// with significance marks, and CSV. Pure functions: no engine, no DOM.
import { csvField } from '../charts/export';
import type { RunResults } from '../generated';

/** One run of the sweep. */
export interface Job {
  /** Position in the plan. */
  index: number;
  /** Index into the schedulers. */
  scheduler: number;
  /** Index into the loads. */
  loadIndex: number;
  /** Total offered load (fraction of the link). */
  load: number;
  /** Replication number, 0-based (seed = first seed + this). */
  seedIndex: number;
}

/** Every run, load by load (lowest first), then scheduler, then seed: points fill in from the left for all schedulers. */
export function planJobs(schedulers: number, loads: readonly number[], seeds: number): Job[] {
  const jobs: Job[] = [];
  loads.forEach((load, loadIndex) => {
    for (let scheduler = 0; scheduler < schedulers; scheduler++) {
      for (let seedIndex = 0; seedIndex < seeds; seedIndex++) {
        jobs.push({ index: jobs.length, scheduler, loadIndex, load, seedIndex });
      }
    }
  });
  return jobs;
}

/** The key of a (scheduler, load) point. */
export function pointKey(scheduler: number, loadIndex: number): string {
  return `${scheduler}@${loadIndex}`;
}

/** What the sweep keeps of one class of one run. */
export interface RunClass {
  name: string;
  /** A network processor's figures (null or absent: not a network processor): the class's window violations, the run's memory accesses and cycles per scheduled packet. */
  np?: NpFigures | null;
  throughput: number;
  /** Throughput in flits per cycle per end point (null or absent: the network has no flit size). */
  flits?: number | null;
  /** Mean latency in ns (null without packets). */
  meanNs: number | null;
  /** 99th percentile latency in ns. */
  p99Ns: number | null;
  /** Largest latency in ns (null without packets). */
  maxNs?: number | null;
  /** Standard deviation of the latency in ns (models that report it; null otherwise). */
  stdNs?: number | null;
  /** Delay per packet over time (`[arrival ns, delay ns]`, sampled), kept only where it is plotted. */
  series?: ReadonlyArray<readonly [number, number]>;
  /** Packets measured. */
  samples: number;
  /** The latency CDF (`[ns, fraction]`), kept only where it is plotted. */
  cdf: ReadonlyArray<readonly [number, number]>;
  /**
   * Jitter of a connection class (null: the class has no connections, so no jitter):
   * samples and the signed CDF (`[ns, fraction]`, kept only where it is plotted).
   */
  jitter?: { samples: number; cdf: ReadonlyArray<readonly [number, number]> } | null;
  /** Connections requested / admitted / refused (null: not a connection class). */
  connections?: Connections | null;
}

/** Connections of a class in one run. */
export interface Connections {
  requested: number;
  admitted: number;
  refused: number;
}

/** What a network-processor run adds per class (stream group). */
export interface NpFigures {
  violations: number;
  accessesPerPacket: number;
  cyclesPerPacket: number;
  /** Cycles of the clock in one mean packet's time on the link (the node's). */
  budgetCycles?: number;
  /** Packets per second the scheduling cost allows (the node's). */
  sustainedPacketsPerS?: number;
  /** Streams of the scenario's packet rate that sustains (the node's). */
  sustainedStreams?: number;
  /** Mean number of streams with a packet queued (the node's). */
  activeStreams?: number;
}

/** What the sweep keeps of one run. */
export type RunSummary = RunClass[];

/** The part of a run's results the sweep keeps (`keepCdf` at the highest load only). */
export function runSummary(results: RunResults, keepCdf: boolean): RunSummary {
  const np = results.network_processor;
  return results.classes.map((c, i) => ({
    name: c.name,
    np: np
      ? {
          violations: np.categories[i]?.violations ?? 0,
          accessesPerPacket: np.cost.accesses_per_packet,
          cyclesPerPacket: np.cost.cycles_per_packet,
          budgetCycles: np.cost.budget_cycles,
          sustainedPacketsPerS: np.cost.sustained_packets_per_s,
          sustainedStreams: np.cost.sustained_streams,
          activeStreams: np.active_streams,
        }
      : null,
    throughput: c.throughput,
    flits: c.flits?.throughput ?? null,
    meanNs: c.latency_ns.mean,
    p99Ns: c.latency_ns.p99,
    maxNs: c.latency_ns.max,
    stdNs: c.latency_std_ns ?? null,
    series: keepCdf ? (c.delay_series?.points ?? []) : [],
    samples: c.latency_ns.samples,
    cdf: keepCdf ? c.latency_ns.cdf : [],
    jitter: c.jitter_ns ? { samples: c.jitter_ns.samples, cdf: keepCdf ? c.jitter_ns.cdf : [] } : null,
    connections: c.connections ? { requested: c.connections.requested, admitted: c.connections.admitted, refused: c.connections.refused } : null,
  }));
}

/** A mean over the seeds and its 90% confidence half-width (null: no value / fewer than two). */
export interface Stat {
  mean: number | null;
  ci90: number | null;
}

/** One class at one (scheduler, load) point. */
export type ClassPoint = { name: string } & Record<Metric, Stat>;

/** The metrics every run has, then those of network processors, in the order of `pointSamples`. */
const BASE_METRICS = ['throughput', 'meanNs', 'p99Ns'] as const;
const NP_METRICS = ['violations', 'accessesPerPacket', 'cyclesPerPacket', 'budgetCycles', 'sustainedPacketsPerS', 'sustainedStreams', 'activeStreams'] as const;
/** Networks with a flit size (R3): throughput in flits per cycle per end point. */
const FLIT_METRICS = ['flitsPerCycle'] as const;
const METRICS = [...BASE_METRICS, ...NP_METRICS, ...FLIT_METRICS] as const;
/** A metric a point summarises. */
export type Metric = (typeof METRICS)[number];

function metricValue(c: RunClass | undefined, m: Metric): number | null | undefined {
  switch (m) {
    case 'throughput':
    case 'meanNs':
    case 'p99Ns':
      return c?.[m];
    case 'flitsPerCycle':
      return c?.flits;
    default:
      return c?.np?.[m];
  }
}

/**
 * The value lists to summarise for a point: per class (of the first run), throughput,
 * mean latency and p99 over the runs (then the network-processor figures, or the flits per
 * cycle, where the runs have them), leaving out runs without a value (no packets), as the
 * engine's `SweepPoint::from_runs` does. `metrics` says which lists each class has, in order.
 */
export function pointSamples(runs: readonly RunSummary[]): { names: string[]; samples: number[][]; metrics: Metric[] } {
  const names = (runs[0] ?? []).map((c) => c.name);
  // Network-processor figures and flits only where the runs have them (other studies keep three lists per class).
  const first = runs[0]?.[0];
  const metrics: Metric[] = [...BASE_METRICS, ...(first?.np ? NP_METRICS : []), ...(typeof first?.flits === 'number' ? FLIT_METRICS : [])];
  const samples = names.flatMap((_, i) =>
    metrics.map((m) =>
      runs.flatMap((r) => {
        const v = metricValue(r[i], m);
        return typeof v === 'number' && Number.isFinite(v) ? [v] : [];
      }),
    ),
  );
  return { names, samples, metrics };
}

/** A [mean, half-width] pair from the engine (NaN for none) as a `Stat`. */
export function toStat(pair: readonly number[] | undefined): Stat {
  const num = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : null);
  return { mean: num(pair?.[0]), ci90: num(pair?.[1]) };
}

/**
 * The per-class summary of a point from the engine's [mean, half-width] of each list of
 * `pointSamples` (`metrics`: its lists per class; default: the first ones of every metric,
 * as many as the stats hold per class).
 */
export function pointClasses(names: readonly string[], stats: readonly (readonly number[])[], metrics?: readonly Metric[]): ClassPoint[] {
  const per = names.length > 0 ? Math.round(stats.length / names.length) : BASE_METRICS.length;
  const lists = metrics ?? METRICS.slice(0, per);
  return names.map((name, i) => {
    const point = { name } as ClassPoint;
    METRICS.forEach((m) => {
      const k = lists.indexOf(m);
      point[m] = k >= 0 ? toStat(stats[i * lists.length + k]) : { mean: null, ci90: null };
    });
    return point;
  });
}

/**
 * The CDF of all packets of several runs together: at every latency of any run, the
 * sample-weighted mean of the runs' CDFs (each a step function, 0 before its first point).
 */
export function poolCdfs(runs: ReadonlyArray<{ samples: number; cdf: ReadonlyArray<readonly [number, number]> }>): [number, number][] {
  const used = runs.filter((r) => r.samples > 0 && r.cdf.length > 0);
  const total = used.reduce((a, r) => a + r.samples, 0);
  if (total === 0) return [];
  const xs = [...new Set(used.flatMap((r) => r.cdf.map(([x]) => x)))].sort((a, b) => a - b);
  const at = used.map(() => -1);
  return xs.map((x) => {
    let f = 0;
    used.forEach((r, k) => {
      let j = at[k] ?? -1;
      while (j + 1 < r.cdf.length && (r.cdf[j + 1]?.[0] ?? Infinity) <= x) j++;
      at[k] = j;
      f += j >= 0 ? (r.cdf[j]?.[1] ?? 0) * r.samples : 0;
    });
    return [x, f / total];
  });
}

/** The loads of the improvement table: lowest, middle and highest of the sweep (fewer if the sweep has fewer). */
export function tableLoads(loads: readonly number[]): number[] {
  const n = loads.length;
  if (n === 0) return [];
  const picks = [0, Math.floor((n - 1) / 2), n - 1];
  return [...new Set(picks)].map((i) => loads[i] ?? 0);
}

/**
 * Improvement of the baseline (the study's `baseline`) over another configuration, as the study defines
 * it: `(other - baseline) / baseline × 100`, in percent of the baseline's latency (positive:
 * the baseline is faster; +190 % means the other's latency is 2.9 times the baseline's).
 * Null when a value is missing or the baseline's latency is 0.
 */
export function improvement(baseline: number | null, other: number | null): number | null {
  if (baseline === null || other === null || !(baseline > 0)) return null;
  return ((other - baseline) / baseline) * 100;
}

/** The formula of `improvement`, as the page says it. */
export const IMPROVEMENT_FORMULA = '(other − baseline) / baseline';

/**
 * Whether two configurations differ significantly at a point: their 90% confidence
 * intervals do not overlap (a conservative test; false without intervals).
 */
export function significant(a: Stat | undefined, b: Stat | undefined): boolean {
  if (!a || !b || a.mean === null || b.mean === null || a.ci90 === null || b.ci90 === null) return false;
  return Math.abs(a.mean - b.mean) > a.ci90 + b.ci90;
}

/** An improvement with its sign and one decimal ("+12.3 %", "−4.0 %", "0.0 %"); "—" when missing. */
export function formatImprovement(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  const tenths = Math.round(Math.abs(v) * 10);
  if (tenths === 0) return '0.0 %';
  return `${v > 0 ? '+' : '−'}${(tenths / 10).toFixed(1)} %`;
}

/** The summarised points of a sweep, by `pointKey`. */
export type Points = ReadonlyMap<string, { load: number; runs: number; classes: ClassPoint[] }>;

/** One row of the improvement table. */
export interface ImprovementRow {
  className: string;
  load: number;
  /** The other scheduler's index. */
  other: number;
  /** Improvement in mean latency, %. */
  mean: number | null;
  /** Improvement in p99 latency, %. */
  p99: number | null;
  /** Whether the means (p99s) differ significantly (`significant`). */
  meanSignificant: boolean;
  p99Significant: boolean;
}

/** Improvement of configuration `baseline` over each other one, per class and table load. */
export function improvementRows(schedulers: number, loads: readonly number[], points: Points, baseline = 0): ImprovementRow[] {
  const rows: ImprovementRow[] = [];
  const picked = tableLoads(loads);
  const names = [...points.values()][0]?.classes.map((c) => c.name) ?? [];
  names.forEach((className, c) => {
    for (const load of picked) {
      const li = loads.indexOf(load);
      const base = points.get(pointKey(baseline, li))?.classes[c];
      for (let other = 0; other < schedulers; other++) {
        if (other === baseline) continue;
        const o = points.get(pointKey(other, li))?.classes[c];
        rows.push({
          className,
          load,
          other,
          mean: improvement(base?.meanNs.mean ?? null, o?.meanNs.mean ?? null),
          p99: improvement(base?.p99Ns.mean ?? null, o?.p99Ns.mean ?? null),
          meanSignificant: significant(base?.meanNs, o?.meanNs),
          p99Significant: significant(base?.p99Ns, o?.p99Ns),
        });
      }
    }
  });
  return rows;
}

/** A band chart series: the mean at each load and, where it exists, the 90% interval. */
export interface BandSeries {
  name: string;
  colorIndex: number;
  points: [number, number][];
  band: [number, number, number][];
}

/**
 * One panel per class: one series per scheduler of `metric` vs load (values divided by
 * `scale`); with a `reference`, one more series of that metric from the first
 * configuration (e.g. the link's budget per packet), named `reference.name`.
 */
export function bandPanels(
  labels: readonly string[],
  loads: readonly number[],
  points: Points,
  metric: (typeof METRICS)[number],
  scale = 1,
  reference?: { metric: Metric; name: string },
): { title: string; series: BandSeries[] }[] {
  const names = [...points.values()][0]?.classes.map((c) => c.name) ?? [];
  const series = (c: number, s: number, m: Metric, name: string, colorIndex: number): BandSeries => {
    const pts: [number, number][] = [];
    const band: [number, number, number][] = [];
    loads.forEach((load, li) => {
      const stat = points.get(pointKey(s, li))?.classes[c]?.[m];
      if (!stat || stat.mean === null) return;
      pts.push([load, stat.mean / scale]);
      if (stat.ci90 !== null) band.push([load, (stat.mean - stat.ci90) / scale, (stat.mean + stat.ci90) / scale]);
    });
    return { name, colorIndex, points: pts, band };
  };
  return names.map((title, c) => ({
    title,
    series: [...labels.map((name, s) => series(c, s, metric, name, s)), ...(reference ? [series(c, 0, reference.metric, reference.name, labels.length)] : [])],
  }));
}

const num = (v: number | null): string => (v === null ? '' : String(v));

/** CSV of every point: scheduler, load, class, runs, and each metric with its 90% half-width. */
export function pointsCsv(labels: readonly string[], loads: readonly number[], points: Points, axisColumn = 'load'): string {
  const lines = [`scheduler,${axisColumn},class,runs,throughput,throughput_ci90,mean_ns,mean_ns_ci90,p99_ns,p99_ns_ci90`];
  labels.forEach((label, s) =>
    loads.forEach((load, li) => {
      const p = points.get(pointKey(s, li));
      for (const c of p?.classes ?? []) {
        lines.push(
          [
            csvField(label),
            load,
            csvField(c.name),
            p?.runs ?? 0,
            num(c.throughput.mean),
            num(c.throughput.ci90),
            num(c.meanNs.mean),
            num(c.meanNs.ci90),
            num(c.p99Ns.mean),
            num(c.p99Ns.ci90),
          ].join(','),
        );
      }
    }),
  );
  return `${lines.join('\r\n')}\r\n`;
}

/** CSV column of each metric. */
const METRIC_CSV: Record<Metric, string> = {
  throughput: 'throughput',
  meanNs: 'mean_ns',
  p99Ns: 'p99_ns',
  violations: 'violations',
  accessesPerPacket: 'accesses_per_packet',
  cyclesPerPacket: 'cycles_per_packet',
  budgetCycles: 'budget_cycles',
  sustainedPacketsPerS: 'sustained_packets_per_s',
  sustainedStreams: 'sustained_streams',
  activeStreams: 'active_streams',
  flitsPerCycle: 'flits_per_cycle',
};

/**
 * CSV of one metric's chart: configuration, the axis value (column `axisColumn`: load,
 * streams, packet_bytes), class, runs, the metric and its 90% half-width, and each
 * `extra` metric (e.g. a plot's reference) with its half-width.
 */
export function metricCsv(
  labels: readonly string[],
  loads: readonly number[],
  points: Points,
  metric: (typeof METRICS)[number],
  axisColumn = 'load',
  extra: readonly Metric[] = [],
): string {
  const columns = [metric, ...extra].flatMap((m) => [METRIC_CSV[m], `${METRIC_CSV[m]}_ci90`]);
  const lines = [['scheduler', axisColumn, 'class', 'runs', ...columns].join(',')];
  labels.forEach((label, s) =>
    loads.forEach((load, li) => {
      const p = points.get(pointKey(s, li));
      for (const c of p?.classes ?? [])
        lines.push([csvField(label), load, csvField(c.name), p?.runs ?? 0, ...[metric, ...extra].flatMap((m) => [num(c[m].mean), num(c[m].ci90)])].join(','));
    }),
  );
  return `${lines.join('\r\n')}\r\n`;
}

/** CSV of the improvement table. */
export function improvementCsv(labels: readonly string[], rows: readonly ImprovementRow[]): string {
  const lines = ['class,load,versus,mean_improvement_percent,p99_improvement_percent,mean_significant,p99_significant'];
  for (const r of rows)
    lines.push([csvField(r.className), r.load, csvField(labels[r.other] ?? ''), num(r.mean), num(r.p99), r.meanSignificant, r.p99Significant].join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A scenario (JSON text) with its seed set (`null` keeps it). */
export function withSeed(json: string, seed: number | null): string {
  if (seed === null) return json;
  const s = JSON.parse(json) as { seed: number };
  return JSON.stringify({ ...s, seed });
}

/** The seed of a scenario (JSON text), 0 if unreadable. */
export function seedOf(json: string): number {
  const s = JSON.parse(json) as { seed?: unknown };
  return typeof s.seed === 'number' ? s.seed : 0;
}

/** The jitter CDF of one connection class at the highest load: one pooled curve per scheduler. */
export interface JitterPanel {
  /** Class name. */
  title: string;
  /** Jitter samples over every run of every scheduler (0: nothing to plot). */
  samples: number;
  /** Per scheduler: the signed jitter CDF of all its seeds pooled (`[ns, fraction]`). */
  series: { name: string; colorIndex: number; points: [number, number][] }[];
}

/**
 * Jitter CDFs per connection class (classes whose runs carry a jitter summary), pooled
 * over the seeds as the latency CDFs are (`poolCdfs`; jitter is signed, the pooling does
 * not care). `runs` maps a scheduler index to its runs at the highest load.
 */
export function jitterPanels(labels: readonly string[], runs: ReadonlyMap<number, readonly RunSummary[]>): JitterPanel[] {
  const first = [...runs.values()].find((r) => r.length > 0)?.[0] ?? [];
  return first.flatMap((cls, c) => {
    if (!cls.jitter) return [];
    const series = labels.map((name, s) => ({
      name,
      colorIndex: s,
      points: poolCdfs((runs.get(s) ?? []).map((r) => ({ samples: r[c]?.jitter?.samples ?? 0, cdf: r[c]?.jitter?.cdf ?? [] }))),
    }));
    const samples = labels.reduce((a, _, s) => a + (runs.get(s) ?? []).reduce((b, r) => b + (r[c]?.jitter?.samples ?? 0), 0), 0);
    return [{ title: cls.name, samples, series }];
  });
}

/** The largest jitter magnitude of some panels (for a symmetric axis), in ns. */
export function jitterExtent(panels: readonly JitterPanel[]): number {
  return Math.max(0, ...panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([x]) => Math.abs(x)))));
}
