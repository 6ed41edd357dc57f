// A lesson is a file of steps (`public/lessons/<id>.json`, docs/studies-and-lessons.md):
// text, a link that opens a view on a scenario, what to look at, and a question whose answer
// is checked against a run: the learner picks an option (a class, or a configuration), the
// question's runs are simulated, and the option with the highest or lowest metric is the
// right one. Pure functions: no engine, no DOM.
import type { RunResults } from '../generated';
import { fetchText } from '../presets/presets';

export type LessonMetric = 'throughput' | 'meanNs' | 'p99Ns' | 'stdNs' | 'violations' | 'accessesPerPacket' | 'cyclesPerPacket';

/** A run a question is checked against: a preset, optionally at a total load and duration. */
export interface LessonRun {
  label: string;
  preset: string;
  /** Total offered load (scales every class, as a sweep does); null keeps the preset's. */
  load: number | null;
  /** Simulated µs (the warm-up shrinks in proportion); null keeps the preset's. */
  durationUs: number | null;
}

export interface LessonQuestion {
  text: string;
  /** Options: the classes of the (one) run, or the runs (configurations) for one class. */
  among: 'classes' | 'configurations';
  pick: 'highest' | 'lowest';
  metric: LessonMetric;
  /** The class compared across configurations (among: configurations). */
  class: string | null;
  /** The classes offered (among: classes). */
  choices: string[];
  runs: LessonRun[];
  /** Why the answer is what it is (shown after the check). */
  why: string;
}

export interface LessonStep {
  title: string;
  text: string;
  /** A link that opens a view (the hash, without `#`) with a scenario. */
  open: { label: string; hash: string } | null;
  look: string;
  question: LessonQuestion | null;
}

export interface Lesson {
  id: string;
  title: string;
  summary: string;
  steps: LessonStep[];
}

export interface LessonInfo {
  id: string;
  title: string;
  summary: string;
}

const METRICS: readonly LessonMetric[] = ['throughput', 'meanNs', 'p99Ns', 'stdNs', 'violations', 'accessesPerPacket', 'cyclesPerPacket'];
export const METRIC_WORDS: Record<LessonMetric, string> = {
  throughput: 'throughput',
  meanNs: 'mean latency',
  p99Ns: '99th percentile latency',
  stdNs: 'standard deviation of the latency',
  violations: 'window violations',
  accessesPerPacket: 'memory accesses per packet',
  cyclesPerPacket: 'cycles per packet',
};

/** A class's value of a metric in one run (network-processor metrics from its own results). */
function metricOf(r: RunResults, cls: number, metric: LessonMetric): number | null | undefined {
  const c = r.classes[cls];
  const np = r.network_processor;
  switch (metric) {
    case 'throughput':
      return c?.throughput;
    case 'meanNs':
      return c?.latency_ns.mean;
    case 'p99Ns':
      return c?.latency_ns.p99;
    case 'stdNs':
      return c?.latency_std_ns;
    case 'violations':
      return np?.categories[cls]?.violations;
    case 'accessesPerPacket':
      return np?.cost.accesses_per_packet;
    case 'cyclesPerPacket':
      return np?.cost.cycles_per_packet;
  }
}

/** The lesson in `text`, or every problem (with the field's path). */
export function parseLesson(text: string): { ok: true; lesson: Lesson } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  let raw: Record<string, unknown>;
  try {
    raw = (JSON.parse(text) ?? {}) as Record<string, unknown>;
  } catch (e) {
    return { ok: false, problems: [`not JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const str = (v: unknown, path: string, optional = false): string => {
    if (typeof v === 'string' && (optional || v.trim() !== '')) return v;
    if (optional && v === undefined) return '';
    problems.push(`${path}: must be a${optional ? '' : ' non-empty'} text`);
    return '';
  };
  const numOrNull = (v: unknown, path: string): number | null => {
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && v > 0 && Number.isFinite(v)) return v;
    problems.push(`${path}: a number above 0, or null`);
    return null;
  };
  if (raw.format !== 1) problems.push('format: must be 1');
  const steps = Array.isArray(raw.steps) ? raw.steps : [];
  if (steps.length === 0) problems.push('steps: at least one');
  const lesson: Lesson = {
    id: str(raw.id, 'id'),
    title: str(raw.title, 'title'),
    summary: str(raw.summary, 'summary', true),
    steps: steps.map((s: unknown, i): LessonStep => {
      const o = (s ?? {}) as Record<string, unknown>;
      const at = `steps[${i}]`;
      const open = o.open === undefined || o.open === null ? null : (o.open as Record<string, unknown>);
      const q = o.question === undefined || o.question === null ? null : (o.question as Record<string, unknown>);
      let question: LessonQuestion | null = null;
      if (q) {
        const among = q.among === 'classes' || q.among === 'configurations' ? q.among : null;
        if (!among) problems.push(`${at}.question.among: "classes" or "configurations"`);
        const pick = q.pick === 'highest' || q.pick === 'lowest' ? q.pick : null;
        if (!pick) problems.push(`${at}.question.pick: "highest" or "lowest"`);
        const metric = METRICS.find((m) => m === q.metric);
        if (!metric) problems.push(`${at}.question.metric: one of ${METRICS.join(', ')}`);
        const runs = (Array.isArray(q.runs) ? q.runs : []).map((r: unknown, j): LessonRun => {
          const ro = (r ?? {}) as Record<string, unknown>;
          return {
            label: str(ro.label, `${at}.question.runs[${j}].label`),
            preset: str(ro.preset, `${at}.question.runs[${j}].preset`),
            load: numOrNull(ro.load, `${at}.question.runs[${j}].load`),
            durationUs: numOrNull(ro.durationUs, `${at}.question.runs[${j}].durationUs`),
          };
        });
        if (among === 'classes' && runs.length !== 1) problems.push(`${at}.question.runs: exactly one run to compare classes in`);
        if (among === 'configurations' && runs.length < 2) problems.push(`${at}.question.runs: two or more configurations to compare`);
        if (among === 'configurations' && typeof q.class !== 'string') problems.push(`${at}.question.class: the class compared`);
        const choices = Array.isArray(q.choices) ? q.choices.filter((c): c is string => typeof c === 'string') : [];
        if (among === 'classes' && choices.length < 2) problems.push(`${at}.question.choices: the classes offered (two or more)`);
        question = {
          text: str(q.text, `${at}.question.text`),
          among: among ?? 'classes',
          pick: pick ?? 'highest',
          metric: metric ?? 'throughput',
          class: typeof q.class === 'string' ? q.class : null,
          choices,
          runs,
          why: str(q.why, `${at}.question.why`),
        };
      }
      return {
        title: str(o.title, `${at}.title`),
        text: str(o.text, `${at}.text`),
        open: open ? { label: str(open.label, `${at}.open.label`), hash: str(open.hash, `${at}.open.hash`) } : null,
        look: str(o.look, `${at}.look`, true),
        question,
      };
    }),
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, lesson };
}

/** The options a question offers before any run: configurations' labels, or its listed classes. */
export function questionOptions(q: LessonQuestion): string[] {
  return q.among === 'configurations' ? q.runs.map((r) => r.label) : q.choices;
}

/** Each option's value in the runs' results (null: no value, e.g. no packets). */
export function optionValues(q: LessonQuestion, results: readonly RunResults[]): { option: string; value: number | null }[] {
  const value = (r: RunResults | undefined, cls: string | null): number | null => {
    const i = r?.classes.findIndex((k) => k.name === cls) ?? -1;
    if (!r || i < 0) return null;
    const v = metricOf(r, i, q.metric);
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  if (q.among === 'configurations') return q.runs.map((run, i) => ({ option: run.label, value: value(results[i], q.class) }));
  return q.choices.map((name) => ({ option: name, value: value(results[0], name) }));
}

/** The right option: the one with the highest (lowest) value; null when none has a value. */
export function rightOption(q: LessonQuestion, values: readonly { option: string; value: number | null }[]): string | null {
  let best: { option: string; value: number } | null = null;
  for (const v of values) {
    if (v.value === null) continue;
    if (!best || (q.pick === 'highest' ? v.value > best.value : v.value < best.value)) best = { option: v.option, value: v.value };
  }
  return best?.option ?? null;
}

/** The index of the lessons (`lessons/index.json`). */
export async function loadLessonIndex(read: (url: string) => Promise<string> = fetchText): Promise<LessonInfo[]> {
  const raw = JSON.parse(await read('lessons/index.json')) as { lessons?: unknown };
  if (!Array.isArray(raw.lessons)) throw new Error('lessons/index.json has no "lessons" list');
  return raw.lessons.map((l: unknown, i) => {
    const o = (l ?? {}) as Record<string, unknown>;
    if (typeof o.id !== 'string' || typeof o.title !== 'string') throw new Error(`lessons/index.json: lessons[${i}] needs an id and a title`);
    return { id: o.id, title: o.title, summary: typeof o.summary === 'string' ? o.summary : '' };
  });
}

/** Reads and checks `lessons/<id>.json`; throws with every problem. */
export async function loadLesson(id: string, read: (url: string) => Promise<string> = fetchText): Promise<Lesson> {
  if (!/^[a-z0-9][a-z0-9-]{0,60}$/.test(id)) throw new Error(`“${id}” is not a lesson name.`);
  let text: string;
  try {
    text = await read(`lessons/${id}.json`);
  } catch (e) {
    throw new Error(`There is no lesson “${id}” (lessons/${id}.json: ${e instanceof Error ? e.message : String(e)}).`, { cause: e });
  }
  const parsed = parseLesson(text);
  if (!parsed.ok) throw new Error(`lessons/${id}.json is not a valid lesson: ${parsed.problems.join('; ')}`);
  return parsed.lesson;
}
