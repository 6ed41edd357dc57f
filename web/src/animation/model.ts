// The animation's display model: what one decision of a trace looks like (pointers,
// counters, queues, credits, the packet leaving, the sentence describing it). Pure
// functions of the engine's trace, so they are tested without a browser. The registers
// present in the trace decide what is drawn: no scheduler is special-cased beyond names
// and units.
import { colorFor } from '../charts/palette';
import { ENGINE_LIMITS } from '../generated/limits';
import type { Decision, Registers, SchedulerCost, TableSide, Trace } from '../generated';
import { lookupScheduler, schedulerTitle } from '../schedulers/registry';

/** The scheduler's display name (its kind when unknown). */
export const schedulerName = schedulerTitle;

/** Bytes per credit (the engine's flow-control unit). */
export const CREDIT_BYTES = ENGINE_LIMITS.credit_bytes;

/** One entry of an arbitration table. */
export interface EntryView {
  index: number;
  class: number;
  /** Weight in 64-byte units (absent for the AS basic table: one packet per entry). */
  weight?: number;
}

/** One arbitration table with its pointer. */
export interface TableView {
  side: TableSide;
  title: string;
  entries: EntryView[];
  /** Selected entry after the decision (null before any selection). */
  pointer: number | null;
  /** Whether this table served the decision (always true for a single table). */
  serving: boolean;
}

/** One class (queue) of the port at a decision. */
export interface ClassView {
  index: number;
  name: string;
  color: string;
  /** Sizes in bytes of the packets that stay in the queue (the one leaving excluded), head first. */
  waiting: number[];
  /** Packets in the queue before the decision (including the one leaving). */
  length: number;
  /** Packets of the queue not listed in the trace (beyond its per-queue depth). */
  unlisted: number;
  /** Free downstream credits before the decision. */
  freeCredits: number;
  /** Downstream buffer in credits. */
  bufferCredits: number;
  /** This class sends the decision's packet. */
  sends: boolean;
  /** Deficit counter after the decision (absent when the scheduler has none). */
  deficit?: number;
  /** Deficit counter before the decision. */
  deficitBefore?: number;
  /** Head packet tags after the decision (null: empty queue; absent: no tags). */
  startTag?: number | null;
  finishTag?: number | null;
  /** EDF: head packet deadline in ns. */
  deadlineNs?: number | null;
}

/** A scalar register. */
export interface CounterView {
  /** Stable id (for tests): `accumulated`, `remaining_weight`, `high_limit_used`, `virtual_time`. */
  id: string;
  label: string;
  /** Value after the decision. */
  value: number;
  /** Value before the decision (null when it did not exist). */
  before: number | null;
  /** Value as shown, with its unit. */
  text: string;
}

/** One work counter of the decision. */
export interface WorkView {
  id: keyof SchedulerCost;
  label: string;
  value: number;
}

/** Everything drawn for one decision. */
export interface StepView {
  /** 0-based position in the trace. */
  step: number;
  total: number;
  timeNs: number;
  endNs: number;
  packet: { class: number; bytes: number; credits: number };
  /** Class selected by the pointer or the round robin after the decision (`registers.selected`). */
  selected: number | null;
  classes: ClassView[];
  tables: TableView[];
  counters: CounterView[];
  work: WorkView[];
  /** "step 12: entry 5 -> class Video sends 1024 B (16 credits); accumulated 18 -> 2". */
  text: string;
}

const WORK_LABELS: readonly [keyof SchedulerCost, string, string][] = [
  ['entries_visited', 'entries visited', 'entry visited'],
  ['bitmap_words', 'bitmap words', 'bitmap word'],
  ['classes_examined', 'classes examined', 'class examined'],
  ['tag_computations', 'tag computations', 'tag computation'],
  ['heap_operations', 'heap operations', 'heap operation'],
];

const TABLE_TITLES: Record<TableSide, string> = { main: 'Table', high: 'High-priority table', low: 'Low-priority table' };

/** The unit of the deficit counters (the scheduler module's; credits when it names none). */
export function deficitUnit(kind: string): 'B' | 'credits' {
  return lookupScheduler(kind)?.animation.deficitUnit ?? 'credits';
}

/** A number for display: integers as is, others with at most 2 decimals. */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toFixed(2)));
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The registers before decision `k`: the previous decision's, or the trace's initial ones. */
export function registersBefore(trace: Trace, k: number): Registers {
  return k > 0 ? (trace.decisions[k - 1]?.registers ?? trace.initial) : trace.initial;
}

/** The tables of the trace, without pointers (in order: main, or high then low). */
export function tableLayout(trace: Trace): { side: TableSide; entries: EntryView[] }[] {
  const sides: TableSide[] = [];
  for (const e of trace.table) if (!sides.includes(e.table)) sides.push(e.table);
  return sides.map((side) => ({
    side,
    entries: trace.table
      .filter((e) => e.table === side)
      .map((e) => (e.weight === undefined ? { index: e.index, class: e.class } : { index: e.index, class: e.class, weight: e.weight })),
  }));
}

/** Pointer of table `side` in `r` (null when none). */
export function pointerOf(r: Registers, side: TableSide): number | null {
  if (side === 'high') return r.high_entry ?? (r.table === 'high' ? (r.entry ?? null) : null);
  if (side === 'low') return r.low_entry ?? (r.table === 'low' ? (r.entry ?? null) : null);
  return r.entry ?? null;
}

/** The scalar counters of `after`, with their values in `before`. */
export function counters(before: Registers, after: Registers): CounterView[] {
  const out: CounterView[] = [];
  if (after.accumulated !== undefined) {
    out.push({
      id: 'accumulated',
      label: 'Accumulated',
      value: after.accumulated,
      before: before.accumulated ?? null,
      text: `${after.accumulated} credits`,
    });
  }
  if (after.remaining_weight !== undefined) {
    out.push({
      id: 'remaining_weight',
      label: 'Remaining weight',
      value: after.remaining_weight,
      before: before.remaining_weight ?? null,
      text: `${after.remaining_weight} × 64 B`,
    });
  }
  if (after.high_limit_used !== undefined) {
    const limit = after.high_limit_bytes;
    out.push({
      id: 'high_limit_used',
      label: 'High limit used',
      value: after.high_limit_used,
      before: before.high_limit_used ?? null,
      text: limit === undefined ? `${after.high_limit_used} B (unbounded)` : `${after.high_limit_used} / ${limit} B`,
    });
  }
  if (after.virtual_time !== undefined) {
    out.push({
      id: 'virtual_time',
      label: 'Virtual time',
      value: after.virtual_time,
      before: before.virtual_time ?? null,
      text: formatValue(after.virtual_time),
    });
  }
  return out;
}

/** The work counters that are non-zero somewhere in the trace (so the list stays stable). */
export function workKinds(trace: Trace): (keyof SchedulerCost)[] {
  return WORK_LABELS.filter(([id]) => trace.decisions.some((d) => d.work[id] > 0)).map(([id]) => id);
}

function workViews(d: Decision, kinds: readonly (keyof SchedulerCost)[]): WorkView[] {
  return WORK_LABELS.filter(([id]) => kinds.includes(id)).map(([id, many]) => ({ id, label: many, value: d.work[id] }));
}

/** "3 entries visited, 1 bitmap word" ("no work" when all are zero). */
export function workText(work: readonly WorkView[]): string {
  const parts = work.filter((w) => w.value > 0).map((w) => {
    const labels = WORK_LABELS.find(([id]) => id === w.id);
    return labels ? plural(w.value, labels[2], labels[1]) : `${w.value} ${w.label}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'no work';
}

function className(trace: Trace, c: number): string {
  return trace.classes[c]?.name ?? `class ${c}`;
}

/** Where the decision came from: "entry 5", "high table entry 2", or "" without a table. */
function sourceText(tables: readonly TableView[], after: Registers): string {
  if (tables.length === 0) return '';
  if (tables.length === 1) {
    const p = tables[0]?.pointer ?? null;
    return p === null ? '' : `entry ${p}`;
  }
  const side = after.table;
  if (side === undefined) return '';
  const p = pointerOf(after, side);
  return p === null ? `${side} table` : `${side} table entry ${p}`;
}

/** The display model of decision `k` (0-based) of `trace`; null when out of range. */
export function stepView(trace: Trace, k: number, kinds: readonly (keyof SchedulerCost)[] = workKinds(trace)): StepView | null {
  const d = trace.decisions[k];
  if (!d) return null;
  const before = registersBefore(trace, k);
  const after = d.registers;
  const kind = trace.scheduler;

  const layout = tableLayout(trace);
  const tables: TableView[] = layout.map(({ side, entries }) => ({
    side,
    title: TABLE_TITLES[side],
    entries,
    pointer: pointerOf(after, side),
    serving: layout.length === 1 || after.table === side,
  }));

  const classes: ClassView[] = trace.classes.map((tc, c) => {
    const queue = d.queues[c] ?? [];
    const length = d.queue_lengths[c] ?? queue.length;
    const sends = c === d.class;
    const view: ClassView = {
      index: c,
      name: tc.name,
      color: colorFor(c),
      waiting: sends ? queue.slice(1) : queue.slice(),
      length,
      unlisted: Math.max(0, length - queue.length),
      freeCredits: d.free_credits[c] ?? 0,
      bufferCredits: tc.buffer_credits,
      sends,
    };
    if (after.deficit) {
      view.deficit = after.deficit[c] ?? 0;
      if (before.deficit) view.deficitBefore = before.deficit[c] ?? 0;
    }
    if (after.start_tags) view.startTag = after.start_tags[c] ?? null;
    if (after.finish_tags) view.finishTag = after.finish_tags[c] ?? null;
    if (after.deadlines_ns) view.deadlineNs = after.deadlines_ns[c] ?? null;
    return view;
  });

  const counterViews = counters(before, after);
  const work = workViews(d, kinds);

  // The sentence.
  const source = sourceText(tables, after);
  const moved =
    tables.length > 0 &&
    (d.work.entries_visited > 0 || tables.some((t) => t.serving && t.pointer !== pointerOf(before, t.side)));
  let head = `step ${k + 1}: `;
  if (source !== '') {
    const serving = tables.find((t) => t.serving);
    const weight = serving && serving.pointer !== null ? serving.entries[serving.pointer]?.weight : undefined;
    const detail = moved ? (weight === undefined ? ' (new)' : ` (new, weight ${weight})`) : '';
    head += `${source}${detail} -> `;
  }
  head += `class ${className(trace, d.class)} sends ${d.bytes} B (${plural(d.credits, 'credit', 'credits')})`;
  const changes: string[] = [];
  for (const c of counterViews) {
    if (c.before !== null && c.before !== c.value) changes.push(`${c.label.toLowerCase()} ${formatValue(c.before)} -> ${formatValue(c.value)}`);
  }
  const sender = classes[d.class];
  if (sender?.deficit !== undefined && sender.deficitBefore !== undefined && sender.deficit !== sender.deficitBefore) {
    changes.push(`deficit of ${sender.name} ${sender.deficitBefore} -> ${sender.deficit} ${deficitUnit(kind)}`);
  }
  const previous = before.selected;
  if (lookupScheduler(kind)?.animation.roundRobin && after.selected !== undefined && previous !== undefined && previous !== after.selected) {
    changes.push(`round robin ${className(trace, previous)} -> ${className(trace, after.selected)}`);
  }
  const text = changes.length > 0 ? `${head}; ${changes.join('; ')}` : head;

  return {
    step: k,
    total: trace.decisions.length,
    timeNs: d.time_ns,
    endNs: d.end_ns,
    packet: { class: d.class, bytes: d.bytes, credits: d.credits },
    selected: after.selected ?? null,
    classes,
    tables,
    counters: counterViews,
    work,
    text,
  };
}

/** Largest packet of any class (for a common bar scale), at least one credit. */
export function largestPacket(trace: Trace): number {
  let max = CREDIT_BYTES;
  for (const c of trace.classes) max = Math.max(max, c.mtu_bytes);
  for (const d of trace.decisions) max = Math.max(max, d.bytes);
  return max;
}

/**
 * Bars of a queue laid out right to left from `headX` (the head nearest the link): each
 * `bytes * pxPerByte` wide (at least `minWidth`), `gap` apart, as long as they fit after
 * `leftX`. `hidden` counts the packets that did not fit (plus `unlisted`).
 */
export function layoutQueue(
  sizes: readonly number[],
  unlisted: number,
  headX: number,
  leftX: number,
  pxPerByte: number,
  minWidth = 2,
  gap = 1,
): { bars: { x: number; width: number; bytes: number }[]; hidden: number } {
  const bars: { x: number; width: number; bytes: number }[] = [];
  let right = headX;
  for (const bytes of sizes) {
    const width = Math.max(minWidth, bytes * pxPerByte);
    if (right - width < leftX) break;
    bars.push({ x: right - width, width, bytes });
    right -= width + gap;
  }
  return { bars, hidden: sizes.length - bars.length + unlisted };
}
