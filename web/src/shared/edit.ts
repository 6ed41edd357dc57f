// Scenario edits of the link lab as pure functions: each takes a scenario and returns a
// new one (inputs are never mutated), keeping the DTable entries consistent with the
// class list. Values are stored as typed; NaN (an empty or unreadable number field)
// travels as JSON null and the engine's validation names the field.
import type {
  ArrivalConfig,
  ClassConfig,
  LinkLabConfig,
  Scenario,
  SchedulerConfig,
  SizeConfig,
  TableEntry,
  TrafficConfig,
} from '../generated';
import { ENGINE_LIMITS } from '../generated/limits';
import { schedulerUi, withClassAdded, withClassRemoved } from '../schedulers/registry';

/** Bytes per flow-control credit (the engine's). */
export const CREDIT_BYTES = ENGINE_LIMITS.credit_bytes;
/** Most classes per port (the engine's limit; AS tables allow VC ids up to 31, IBA VLs up to 14). */
export const MAX_CLASSES = ENGINE_LIMITS.max_classes;

export type SizeKind = SizeConfig['kind'];
/** Any arrival process kind. */
export type AnyArrivalKind = ArrivalConfig['kind'];

/** Parameters a new on/off source starts with: 100 µs on, 300 µs off (mean). */
export const DEFAULT_ON_OFF = { mean_on_us: 100, mean_off_us: 300 } as const;
/** Packets per burst a new bursty source starts with. */
export const DEFAULT_BURST_PACKETS = 60;

/** Credits needed by a packet of `bytes` bytes. */
export function creditsFor(bytes: number): number {
  return Math.ceil(bytes / CREDIT_BYTES);
}

/** Largest packet size of a distribution, in bytes. */
export function maxBytes(size: SizeConfig): number {
  return size.kind === 'fixed' ? size.bytes : size.max_bytes;
}

/** Smallest packet size of a distribution, in bytes. */
export function minBytes(size: SizeConfig): number {
  return size.kind === 'fixed' ? size.bytes : size.min_bytes;
}

/** A scenario whose model is the link lab: what the link lab's editors edit. */
export type LinkLabScenario = Scenario & { model: { kind: 'link_lab' } & LinkLabConfig };

/** Whether the scenario's model is the link lab (a network has its own editor, web/src/network/). */
export function isLinkLab(s: Scenario): s is LinkLabScenario {
  return s.model.kind === 'link_lab';
}

/** The link lab of a scenario, or null when its model is something else (a network). */
export function labOf(s: Scenario): LinkLabConfig | null {
  return s.model.kind === 'link_lab' ? s.model : null;
}

/** A weighted table of a scheduler: the DTable table, or the IBA high or low table. */
export type TableSide = 'main' | 'high' | 'low';

/** The JSON path of a weighted table. */
export function tablePath(side: TableSide): string {
  return side === 'main' ? 'model.scheduler.table' : `model.scheduler.${side}`;
}

/**
 * Most entries and the weight range of a weighted table of the scenario's scheduler (from
 * its module in `schedulers/`; no entries for a kind without such a table).
 */
export function tableLimits(s: Scenario, side: TableSide = 'main'): { maxEntries: number; minWeight: number; maxWeight: number } {
  const lab = labOf(s);
  const tables = lab ? schedulerUi(lab.scheduler).weightedTables : undefined;
  return tables ? tables.limits(side) : { maxEntries: 0, minWeight: 0, maxWeight: 0 };
}

/** The entries of a weighted table (empty when the scheduler has no such table). */
export function tableOf(s: Scenario, side: TableSide = 'main'): TableEntry[] {
  const lab = labOf(s);
  if (!lab) return [];
  const sch = lab.scheduler;
  return [...(schedulerUi(sch).weightedTables?.get(sch, side) ?? [])];
}

/** `s` with its link lab patched; a scenario of another model is returned unchanged. */
function withLab(s: Scenario, patch: Partial<LinkLabConfig>): Scenario {
  if (s.model.kind !== 'link_lab') return s;
  return { ...s, model: { ...s.model, ...patch } };
}

/** Replaces the scheduler. */
export function setScheduler(s: Scenario, scheduler: SchedulerConfig): Scenario {
  return withLab(s, { scheduler });
}

function withTable(s: Scenario, table: TableEntry[], side: TableSide = 'main'): Scenario {
  const lab = labOf(s);
  if (!lab) return s;
  const sch = lab.scheduler;
  const tables = schedulerUi(sch).weightedTables;
  return tables && tables.get(sch, side) !== undefined ? setScheduler(s, tables.set(sch, side, table)) : s;
}

function withClasses(s: Scenario, classes: ClassConfig[]): Scenario {
  return withLab(s, { classes });
}


/** Sets the link rate in Gb/s. */
export function setLinkRate(s: Scenario, gbps: number): Scenario {
  const lab = labOf(s);
  return lab ? withLab(s, { link: { ...lab.link, rate_gbps: gbps } }) : s;
}

/** Sets the downstream buffer per class, in bytes. */
export function setBufferBytes(s: Scenario, bytes: number): Scenario {
  const lab = labOf(s);
  return lab ? withLab(s, { downstream: { ...lab.downstream, buffer_bytes: bytes } }) : s;
}

/** Sets the downstream drain rate in Gb/s. */
export function setDrainRate(s: Scenario, gbps: number): Scenario {
  const lab = labOf(s);
  return lab ? withLab(s, { downstream: { ...lab.downstream, drain_rate_gbps: gbps } }) : s;
}

function updateClassAt(s: Scenario, i: number, f: (c: ClassConfig) => ClassConfig): Scenario {
  const classes = labOf(s)?.classes ?? [];
  if (i < 0 || i >= classes.length) return s;
  return withClasses(
    s,
    classes.map((c, k) => (k === i ? f(c) : c)),
  );
}

function updateTraffic(s: Scenario, i: number, f: (t: TrafficConfig) => TrafficConfig): Scenario {
  return updateClassAt(s, i, (c) => ({ ...c, traffic: f(c.traffic) }));
}

/** Renames class `i`. */
export function setClassName(s: Scenario, i: number, name: string): Scenario {
  return updateClassAt(s, i, (c) => ({ ...c, name }));
}

/** Sets the offered load of class `i` (fraction of the link rate). */
export function setClassLoad(s: Scenario, i: number, load: number): Scenario {
  return updateTraffic(s, i, (t) => ({ ...t, load }));
}

/** Sets the arrival process of class `i` (new parameters start at their defaults). */
export function setClassArrivals(s: Scenario, i: number, kind: AnyArrivalKind): Scenario {
  return updateTraffic(s, i, (t) => {
    if (t.arrivals.kind === kind) return t;
    let arrivals: ArrivalConfig;
    switch (kind) {
      case 'constant':
      case 'poisson':
        arrivals = { kind };
        break;
      case 'on_off':
        arrivals = { kind, ...DEFAULT_ON_OFF };
        break;
      case 'bursts':
        arrivals = { kind, packets: DEFAULT_BURST_PACKETS };
        break;
    }
    return { ...t, arrivals };
  });
}

/** A numeric parameter of an arrival process. */
export type ArrivalField = 'mean_on_us' | 'mean_off_us' | 'packets';

/** Sets one parameter of class `i`'s arrival process (ignored if the kind lacks it). */
export function setClassArrivalField(s: Scenario, i: number, field: ArrivalField, value: number): Scenario {
  return updateTraffic(s, i, (t) => {
    const a = t.arrivals;
    if (a.kind === 'on_off' && (field === 'mean_on_us' || field === 'mean_off_us')) return { ...t, arrivals: { ...a, [field]: value } };
    if (a.kind === 'bursts' && field === 'packets') return { ...t, arrivals: { ...a, packets: value } };
    return t;
  });
}

/** Default tail index of a new Pareto distribution. */
export const DEFAULT_PARETO_SHAPE = 1.2;

/**
 * Changes the kind of class `i`'s size distribution, keeping its sizes where they carry
 * over (fixed → uniform keeps the size as min and max; → fixed keeps the largest size).
 */
export function setClassSizeKind(s: Scenario, i: number, kind: SizeKind): Scenario {
  return updateTraffic(s, i, (t) => {
    if (t.size.kind === kind) return t;
    const lo = minBytes(t.size);
    const hi = maxBytes(t.size);
    let size: SizeConfig;
    switch (kind) {
      case 'fixed':
        size = { kind: 'fixed', bytes: hi };
        break;
      case 'uniform':
        size = { kind: 'uniform', min_bytes: lo, max_bytes: hi };
        break;
      case 'pareto':
        size = { kind: 'pareto', min_bytes: lo, max_bytes: hi, shape: DEFAULT_PARETO_SHAPE };
        break;
    }
    return { ...t, size };
  });
}

/** A numeric field of a size distribution. */
export type SizeField = 'bytes' | 'min_bytes' | 'max_bytes' | 'shape';

/** Sets one field of class `i`'s size distribution (ignored if the kind lacks it). */
export function setClassSizeField(s: Scenario, i: number, field: SizeField, value: number): Scenario {
  return updateTraffic(s, i, (t) => {
    const size = t.size;
    if (!(field in size)) return t;
    return { ...t, size: { ...size, [field]: value } as SizeConfig };
  });
}

/** The classes of a model: its traffic classes, or a network processor's stream groups (its result categories). */
export function modelClasses(model: Scenario['model']): readonly { name: string }[] {
  return model.kind === 'network_processor' ? model.streams : model.classes;
}

/** A class name not used by any class of `s`: "Class N". */
export function freshClassName(s: Scenario): string {
  const classes = modelClasses(s.model);
  const used = new Set(classes.map((c) => c.name));
  for (let n = classes.length; ; n++) {
    const name = `Class ${n}`;
    if (!used.has(name)) return name;
  }
}

/** Weight of the entry added with a new class, in credits. */
export const NEW_CLASS_WEIGHT = 16;

/**
 * Appends a class (Poisson arrivals of 256-byte packets at 10 % load) and one table entry
 * for it, so the scenario stays valid. Does nothing at the class limit.
 */
export function addClass(s: Scenario): Scenario {
  const lab = labOf(s);
  if (!lab) return s;
  const classes = lab.classes;
  if (classes.length >= MAX_CLASSES) return s;
  const added: ClassConfig = {
    name: freshClassName(s),
    traffic: { load: 0.1, arrivals: { kind: 'poisson' }, size: { kind: 'fixed', bytes: 256 } },
  };
  const withClass = withClasses(s, [...classes, added]);
  return setScheduler(withClass, withClassAdded(lab.scheduler, added, classes.length));
}

/**
 * Removes class `i`, its table entries, and renumbers the entries of the classes after it.
 * Entries naming classes that do not exist are left for validation to report.
 */
export function removeClass(s: Scenario, i: number): Scenario {
  const lab = labOf(s);
  if (!lab) return s;
  const classes = lab.classes;
  if (i < 0 || i >= classes.length) return s;
  return setScheduler(
    withClasses(
      s,
      classes.filter((_, k) => k !== i),
    ),
    withClassRemoved(lab.scheduler, i, classes.length),
  );
}

/** Appends a table entry: a copy of the last one, or one for class 0 with its MTU as weight. */
export function addEntry(s: Scenario, side: TableSide = 'main'): Scenario {
  const table = tableOf(s, side);
  const limits = tableLimits(s, side);
  if (table.length >= limits.maxEntries) return s;
  const last = table[table.length - 1];
  const first = labOf(s)?.classes[0];
  const mtu = first ? Math.max(1, creditsFor(maxBytes(first.traffic.size))) : 1;
  const entry: TableEntry = last ? { ...last } : { class: 0, weight: Math.min(limits.maxWeight, mtu) };
  return withTable(s, [...table, entry], side);
}

/** Removes table entry `j`. */
export function removeEntry(s: Scenario, j: number, side: TableSide = 'main'): Scenario {
  const table = tableOf(s, side);
  if (j < 0 || j >= table.length) return s;
  return withTable(
    s,
    table.filter((_, k) => k !== j),
    side,
  );
}

/** Replaces a whole weighted table. */
export function setTable(s: Scenario, table: TableEntry[], side: TableSide = 'main'): Scenario {
  return withTable(s, table, side);
}

/** Moves table entry `j` by `delta` places (-1 = up); does nothing at the ends. */
export function moveEntry(s: Scenario, j: number, delta: number, side: TableSide = 'main'): Scenario {
  const table = tableOf(s, side);
  const to = j + delta;
  if (j < 0 || j >= table.length || to < 0 || to >= table.length || delta === 0) return s;
  const next = [...table];
  const [moved] = next.splice(j, 1);
  if (moved === undefined) return s;
  next.splice(to, 0, moved);
  return withTable(s, next, side);
}

/** Changes table entry `j`. */
export function setEntry(s: Scenario, j: number, patch: Partial<TableEntry>, side: TableSide = 'main'): Scenario {
  const table = tableOf(s, side);
  if (j < 0 || j >= table.length) return s;
  return withTable(
    s,
    table.map((e, k) => (k === j ? { ...e, ...patch } : e)),
    side,
  );
}
