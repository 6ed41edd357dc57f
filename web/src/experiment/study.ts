// A study described as data (`public/studies/<id>.json`, docs/studies-and-lessons.md): the
// configurations (presets), the swept axis, seeds and duration, the plots to draw. The
// experiment view runs any study; `parseStudy` checks a file and names every problem.
import { fetchText } from '../presets/presets';
import type { Axis } from '../generated';
import { parseLoads } from '../sweep/sweepPlan';

/** A configuration of a study: a bundled preset and its short name. */
export interface StudyConfiguration {
  /** Preset name (`public/presets/<preset>.json`). */
  preset: string;
  /** Short name for legends and tables. */
  label: string;
  /** A study with `groups`: the panel (e.g. the topology) this configuration is drawn in. */
  panel?: string;
  /** A study with `groups`: the series (e.g. the switch model) this configuration is a line of. */
  series?: string;
  /** Wall time of one run per simulated ms on one worker (default: the study's `cost`), for the estimate. */
  msPerSimulatedMs?: number;
}

/**
 * How a grouped study draws its configurations: a panel per `panel` value (e.g. the
 * topology), a line per `series` value (e.g. the switch model), one class at a time (or
 * small multiples); the form runs the panels chosen (`defaultPanels` at first).
 */
export interface StudyGroups {
  /** What the panels are ("Topology"). */
  panel: string;
  /** What the series are ("Switch"). */
  series: string;
  /** The panels a sweep runs by default (all when empty). */
  defaultPanels: string[];
}

/** What a study sweeps: the total offered load (U for a network processor), or a network processor's streams or packet size. */
export const AXIS_KINDS = ['load', 'streams', 'packetBytes'] as const;
export type AxisKind = (typeof AXIS_KINDS)[number];

/**
 * Per axis kind: the engine's axis (`scenario_at_point`), the CSV column of its values, what
 * a value is called in tables and messages, a log x axis on plots, and the values it takes
 * (the rule in words; the engine checks the rest).
 */
export const AXIS_INFO: Record<AxisKind, { engine: Axis; csv: string; noun: string; logX: boolean; rule: string; ok: (n: number) => boolean }> = {
  load: { engine: 'load', csv: 'load', noun: 'load', logX: false, rule: 'a load above 0', ok: (n) => n > 0 },
  streams: {
    engine: 'streams',
    csv: 'streams',
    noun: 'stream count',
    logX: true,
    rule: 'a whole number of streams from 1 to 20000',
    ok: (n) => Number.isInteger(n) && n >= 1 && n <= 20_000,
  },
  packetBytes: {
    engine: 'packet_bytes',
    csv: 'packet_bytes',
    noun: 'packet size (bytes)',
    logX: false,
    rule: 'a whole number of bytes from 1 to 65536',
    ok: (n) => Number.isInteger(n) && n >= 1 && n <= 65_536,
  },
};

/**
 * The values typed for an axis (commas or spaces), increasing without repeats; for a load
 * axis, loads above 0 and at most 4 (the sweep panel's rule); else `AXIS_INFO[kind]`'s rule.
 */
export function parseAxisValues(text: string, kind: AxisKind): { loads: number[]; error: string | null } {
  if (kind === 'load') return parseLoads(text);
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  if (parts.length === 0) return { loads: [], error: 'Give at least one value.' };
  const values: number[] = [];
  for (const p of parts) {
    const v = Number(p);
    if (!AXIS_INFO[kind].ok(v)) return { loads: [], error: `“${p}” is not ${AXIS_INFO[kind].rule}.` };
    if (!values.includes(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  return { loads: values, error: null };
}

/** The metrics a point summarises (mean and 90% half-width over the seeds). */
export const METRIC_NAMES = [
  'throughput',
  'meanNs',
  'p99Ns',
  'violations',
  'accessesPerPacket',
  'cyclesPerPacket',
  'budgetCycles',
  'sustainedPacketsPerS',
  'sustainedStreams',
  'activeStreams',
  'flitsPerCycle',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** What a metric is called on axes and in CSV columns. */
export const METRIC_INFO: Record<MetricName, { axis: string; csv: string; time: boolean }> = {
  throughput: { axis: 'Throughput (fraction of link)', csv: 'throughput', time: false },
  meanNs: { axis: 'Mean latency', csv: 'mean_ns', time: true },
  p99Ns: { axis: 'p99 latency', csv: 'p99_ns', time: true },
  violations: { axis: 'Window violations', csv: 'violations', time: false },
  accessesPerPacket: { axis: 'Memory accesses per packet', csv: 'accesses_per_packet', time: false },
  cyclesPerPacket: { axis: 'Cycles per packet', csv: 'cycles_per_packet', time: false },
  budgetCycles: { axis: 'Link budget (cycles per packet at line rate)', csv: 'budget_cycles', time: false },
  sustainedPacketsPerS: { axis: 'Sustained packets per second', csv: 'sustained_packets_per_s', time: false },
  sustainedStreams: { axis: 'Streams sustained at line rate', csv: 'sustained_streams', time: false },
  activeStreams: { axis: 'Active streams (mean)', csv: 'active_streams', time: false },
  flitsPerCycle: { axis: 'Throughput (flits/cycle/node)', csv: 'flits_per_cycle', time: false },
};

/** One plot or table of the results. */
export type StudyPlot =
  /** `reference`: a second metric drawn as one more line (from the first configuration), e.g. the link's budget. */
  | { kind: 'metric'; id: string; metric: MetricName; title: string; reference?: MetricName }
  | { kind: 'cdf'; id: string }
  | { kind: 'jitter'; id: string }
  | { kind: 'admission'; id: string }
  | { kind: 'cost'; id: string }
  | { kind: 'delayTable'; id: string }
  | { kind: 'delaySeries'; id: string }
  | { kind: 'improvement'; id: string; baseline: number };

export interface Study {
  id: string;
  title: string;
  /** Short name ("Run R2 sweep"). */
  short: string;
  tagline: string;
  description: string;
  configurations: StudyConfiguration[];
  /** The swept axis (`AXIS_INFO`; the engine's `scenario_at_point`). */
  axis: { kind: AxisKind; label: string; values: number[]; hint: string };
  /** Seeds per point by default. */
  seeds: number;
  seedsHint: string;
  /** Simulated time per run by default, µs (null: each preset's). */
  durationUs: number | null;
  plots: StudyPlot[];
  /** The class whose generator a frame-size trace may replace (null: no video source control). */
  videoTraceClass: string | null;
  /** Wall time of one run per simulated ms on one worker of these machines, for the estimate. */
  cost: { msPerSimulatedMs: number };
  /** Other studies of the same experiment family, linked from the view (e.g. R5's three). */
  related?: { study: string; label: string }[];
  /** Panels and series of a grouped study (null: a line per configuration, a panel per class). */
  groups: StudyGroups | null;
}

const ID = /^[a-z0-9][a-z0-9-]{0,40}$/;

/** The study in `text`, or every problem found (with the field's path). */
export function parseStudy(text: string): { ok: true; study: Study } | { ok: false; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [`not JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const problems: string[] = [];
  const o = (raw ?? {}) as Record<string, unknown>;
  const str = (v: unknown, path: string): string => {
    if (typeof v === 'string' && v.trim() !== '') return v;
    problems.push(`${path}: must be a non-empty text`);
    return '';
  };
  const num = (v: unknown, path: string, ok: (n: number) => boolean, rule: string): number => {
    if (typeof v === 'number' && Number.isFinite(v) && ok(v)) return v;
    problems.push(`${path}: must be ${rule}`);
    return 0;
  };
  if (o.format !== 1) problems.push('format: must be 1');
  const id = str(o.id, 'id');
  if (id && !ID.test(id)) problems.push('id: lower-case letters, digits and dashes');
  const grouped = o.groups !== undefined && o.groups !== null;
  const configurations = Array.isArray(o.configurations)
    ? o.configurations.map((c: unknown, i) => readConfiguration(c, `configurations[${i}]`, grouped, problems))
    : [];
  if (configurations.length === 0) problems.push('configurations: at least one');
  const groups = grouped ? readGroups(o.groups, configurations, problems) : null;
  const a = (o.axis ?? {}) as Record<string, unknown>;
  const kind = AXIS_KINDS.find((k) => k === a.kind);
  if (!kind) problems.push(`axis.kind: “${String(a.kind)}” is not supported (${AXIS_KINDS.join(', ')})`);
  const axisInfo = AXIS_INFO[kind ?? 'load'];
  const values = Array.isArray(a.values) ? a.values.map((v: unknown, i) => num(v, `axis.values[${i}]`, axisInfo.ok, axisInfo.rule)) : [];
  if (values.length === 0) problems.push(`axis.values: at least one ${kind === 'load' || !kind ? 'load' : 'value'}`);
  const plots = Array.isArray(o.plots) ? o.plots.flatMap((p: unknown, i) => readPlot(p, `plots[${i}]`, configurations.length, problems)) : [];
  const ids = plots.map((p) => p.id);
  if (new Set(ids).size !== ids.length) problems.push('plots: two plots have the same id');
  const cost = (o.cost ?? {}) as Record<string, unknown>;
  const related =
    o.related === undefined
      ? undefined
      : Array.isArray(o.related)
        ? o.related.map((r: unknown, i) => {
            const x = (r ?? {}) as Record<string, unknown>;
            if (typeof x.study !== 'string' || !ID.test(x.study)) problems.push(`related[${i}].study: a study id (lower-case letters, digits and dashes)`);
            return { study: String(x.study), label: str(x.label, `related[${i}].label`) };
          })
        : (problems.push('related: a list of { study, label }'), undefined);
  const study: Study = {
    id,
    title: str(o.title, 'title'),
    short: str(o.short, 'short'),
    tagline: typeof o.tagline === 'string' ? o.tagline : '',
    description: typeof o.description === 'string' ? o.description : '',
    configurations,
    axis: { kind: kind ?? 'load', label: str(a.label, 'axis.label'), values, hint: typeof a.hint === 'string' ? a.hint : '' },
    seeds: num(o.seeds, 'seeds', (n) => Number.isInteger(n) && n >= 1 && n <= 100, 'a whole number from 1 to 100'),
    seedsHint: typeof o.seedsHint === 'string' ? o.seedsHint : '',
    durationUs: o.durationUs === null || o.durationUs === undefined ? null : num(o.durationUs, 'durationUs', (n) => Number.isInteger(n) && n >= 1, 'a whole number of µs'),
    plots,
    videoTraceClass: typeof o.videoTraceClass === 'string' ? o.videoTraceClass : null,
    cost: { msPerSimulatedMs: num(cost.msPerSimulatedMs, 'cost.msPerSimulatedMs', (n) => n > 0, 'above 0') },
    ...(related ? { related } : {}),
    groups,
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, study };
}

function readConfiguration(c: unknown, path: string, grouped: boolean, problems: string[]): StudyConfiguration {
  const r = (c ?? {}) as Record<string, unknown>;
  const text = (key: string): string => {
    const v = r[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
    problems.push(`${path}.${key}: must be a non-empty text`);
    return '';
  };
  const out: StudyConfiguration = { preset: text('preset'), label: text('label') };
  for (const key of ['panel', 'series'] as const) {
    if (grouped) out[key] = text(key);
    else if (r[key] !== undefined) problems.push(`${path}.${key}: only in a study with "groups"`);
  }
  const cost = r.msPerSimulatedMs;
  if (cost !== undefined) {
    if (typeof cost === 'number' && Number.isFinite(cost) && cost > 0) out.msPerSimulatedMs = cost;
    else problems.push(`${path}.msPerSimulatedMs: must be above 0`);
  }
  return out;
}

function readGroups(g: unknown, configurations: readonly StudyConfiguration[], problems: string[]): StudyGroups {
  const r = (typeof g === 'object' && g !== null ? g : {}) as Record<string, unknown>;
  const text = (key: string): string => {
    const v = r[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
    problems.push(`groups.${key}: must be a non-empty text`);
    return '';
  };
  const groups: StudyGroups = { panel: text('panel'), series: text('series'), defaultPanels: [] };
  const panels = new Set(configurations.map((c) => c.panel));
  if (r.defaultPanels !== undefined) {
    if (!Array.isArray(r.defaultPanels)) problems.push('groups.defaultPanels: must be a list of panels');
    else
      r.defaultPanels.forEach((p: unknown, i) => {
        if (typeof p === 'string' && panels.has(p)) groups.defaultPanels.push(p);
        else problems.push(`groups.defaultPanels[${i}]: “${String(p)}” is not the panel of any configuration`);
      });
  }
  const seen = new Map<string, number>();
  configurations.forEach((c, i) => {
    const key = JSON.stringify([c.panel, c.series]);
    const before = seen.get(key);
    if (before !== undefined) problems.push(`configurations[${i}]: the same panel and series as configurations[${before}]`);
    else seen.set(key, i);
  });
  return groups;
}

function readPlot(p: unknown, path: string, configurations: number, problems: string[]): StudyPlot[] {
  const r = (p ?? {}) as Record<string, unknown>;
  const id = typeof r.id === 'string' && ID.test(r.id) ? r.id : '';
  if (!id) problems.push(`${path}.id: lower-case letters, digits and dashes`);
  switch (r.kind) {
    case 'metric': {
      const metric = METRIC_NAMES.find((m) => m === r.metric);
      if (!metric) problems.push(`${path}.metric: one of ${METRIC_NAMES.join(', ')}`);
      if (typeof r.title !== 'string') problems.push(`${path}.title: a text`);
      const reference = METRIC_NAMES.find((m) => m === r.reference);
      if (r.reference !== undefined && !reference) problems.push(`${path}.reference: one of ${METRIC_NAMES.join(', ')}`);
      if (!metric) return [];
      return [reference ? { kind: 'metric', id, metric, title: String(r.title), reference } : { kind: 'metric', id, metric, title: String(r.title) }];
    }
    case 'cdf':
    case 'jitter':
    case 'admission':
    case 'cost':
    case 'delayTable':
    case 'delaySeries':
      return [{ kind: r.kind, id }];
    case 'improvement': {
      const b = r.baseline;
      if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b >= configurations) {
        problems.push(`${path}.baseline: the index of a configuration`);
        return [];
      }
      return [{ kind: 'improvement', id, baseline: b }];
    }
    default:
      problems.push(`${path}.kind: “${String(r.kind)}” is not a plot (metric, cdf, jitter, admission, cost, improvement, delayTable, delaySeries)`);
      return [];
  }
}

/** Reads and checks `studies/<id>.json` next to the page; throws with every problem. */
export async function loadStudy(id: string, read: (url: string) => Promise<string> = fetchText): Promise<Study> {
  if (!ID.test(id)) throw new Error(`“${id}” is not a study name.`);
  let text: string;
  try {
    text = await read(`studies/${id}.json`);
  } catch (e) {
    throw new Error(`There is no study “${id}” (studies/${id}.json: ${e instanceof Error ? e.message : String(e)}).`, { cause: e });
  }
  const parsed = parseStudy(text);
  if (!parsed.ok) throw new Error(`studies/${id}.json is not a valid study: ${parsed.problems.join('; ')}`);
  if (parsed.study.id !== id) throw new Error(`studies/${id}.json says its id is “${parsed.study.id}”.`);
  return parsed.study;
}

/**
 * Seconds a sweep should take: every run's simulated time at the study's measured cost,
 * spread over the workers (rounded up to whole rounds).
 */
export function estimateSeconds(study: Study, runs: number, durationUs: number, workers: number): number {
  const rounds = Math.ceil(runs / Math.max(1, workers));
  return (rounds * (durationUs / 1000) * study.cost.msPerSimulatedMs) / 1000;
}

/** An estimate in words ("about 40 s", "about 3 min"). */
export function formatEstimate(seconds: number): string {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `about ${Math.ceil(seconds)} s`;
  if (seconds < 5400) return `about ${Math.round(seconds / 60)} min`;
  return `about ${(seconds / 3600).toFixed(1)} h`;
}

/**
 * Seconds a sweep of the configurations `configs` (indices) at `loads` loads and `seeds`
 * seeds should take: the runs are handed, in the sweep's order (load by load, then
 * configuration, then seed), to the worker free first, each costing its configuration's
 * `msPerSimulatedMs` (or the study's). With one cost for all it is `estimateSeconds`.
 */
export function estimateSweepSeconds(study: Study, configs: readonly number[], loads: number, seeds: number, durationUs: number, workers: number): number {
  const busy = new Array<number>(Math.max(1, workers)).fill(0);
  for (let l = 0; l < loads; l++) {
    for (const c of configs) {
      const ms = (durationUs / 1000) * (study.configurations[c]?.msPerSimulatedMs ?? study.cost.msPerSimulatedMs);
      for (let s = 0; s < seeds; s++) {
        const first = busy.indexOf(Math.min(...busy));
        busy[first] = (busy[first] ?? 0) + ms;
      }
    }
  }
  return Math.max(...busy) / 1000;
}
