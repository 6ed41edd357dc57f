// "Simulate this table": the link-lab scenario that runs a designed table, with the fabric
// settings' high-priority table next to it (InfiniBand, Omni-Path).
import { hasFabric, type FabricForm } from './fabric';
import { TECHNOLOGIES, num, type DesignForm } from './model';
import type { DesignEntry, Scenario, SchedulerConfig, Technology } from '../generated';
import { ENGINE_LIMITS } from '../generated/limits';

/** Total offered load of the simulation scenario (below 1 so the queues are stable). */
export const SIMULATION_LOAD = 0.95;
/** Simulated time and warm-up of the scenario, in µs. */
export const SIMULATION_DURATION_US = 500_000;
export const SIMULATION_WARMUP_US = 50_000;

/** The scheduler that runs `table` on `technology`; null with the reason when it cannot. */
export function schedulerFor(
  technology: Technology,
  table: readonly DesignEntry[],
  names: readonly string[],
  fabric?: FabricForm,
): { ok: true; scheduler: SchedulerConfig } | { ok: false; reason: string } {
  const index = (e: DesignEntry) => names.indexOf(e.class);
  const unknown = table.findIndex((e) => index(e) < 0);
  if (unknown >= 0) return { ok: false, reason: `entry ${unknown} names no class (“${table[unknown]?.class ?? ''}”)` };
  if (technology === 'as') return { ok: true, scheduler: { kind: 'as_basic', table: table.map(index) } };
  const missing = table.findIndex((e) => e.weight === null);
  if (missing >= 0) return { ok: false, reason: `entry ${missing} has no weight` };
  const entries = table.map((e) => ({ class: index(e), weight: e.weight ?? 0 }));
  if (technology === 'dtable') return { ok: true, scheduler: { kind: 'dtable', table: entries } };
  // InfiniBand and Omni-Path: the design is the low-priority table, next to the fabric
  // settings' high table (empty without them).
  const high = highTable(technology, fabric, names);
  if (!high.ok) return high;
  return { ok: true, scheduler: { kind: 'iba', high: high.entries, low: entries, high_limit: high.limit } };
}

/** Weight and limit that stand for Omni-Path's strict priority (`HighPriority 1`). */
const OPA_HIGH_WEIGHT = ENGINE_LIMITS.iba_max_weight;
const UNBOUNDED_HIGH_LIMIT = ENGINE_LIMITS.iba_high_limit_unbounded;
/** Largest VLArb weight and high limit (the engine's). */
const IBA_MAX_WEIGHT = ENGINE_LIMITS.iba_max_weight;
const CREDIT_BYTES = ENGINE_LIMITS.credit_bytes;

/**
 * The high-priority table of the fabric settings as the engine's VL arbitration runs it:
 * InfiniBand's high table and high limit as typed; Omni-Path's high-priority classes served
 * first without a limit (weight 255, limit 255, as the FM programs them).
 */
function highTable(
  technology: Technology,
  fabric: FabricForm | undefined,
  names: readonly string[],
): { ok: true; entries: { class: number; weight: number }[]; limit: number } | { ok: false; reason: string } {
  const typed = fabric?.high ?? [];
  const entries: { class: number; weight: number }[] = [];
  for (const [k, h] of typed.entries()) {
    const cls = names.indexOf(h.class);
    if (cls < 0) return { ok: false, reason: `high-table entry ${k} names no class (“${h.class}”)` };
    const weight = technology === 'omnipath' ? OPA_HIGH_WEIGHT : wholeIn(h.weight, 0, IBA_MAX_WEIGHT);
    if (weight === null) return { ok: false, reason: `high-table entry ${k} needs a weight from 0 to ${IBA_MAX_WEIGHT}` };
    entries.push({ class: cls, weight });
  }
  if (technology === 'omnipath') return { ok: true, entries, limit: entries.length > 0 ? UNBOUNDED_HIGH_LIMIT : 0 };
  const limit = fabric?.highLimit.trim() ? wholeIn(fabric.highLimit, 0, UNBOUNDED_HIGH_LIMIT) : 0;
  if (limit === null) return { ok: false, reason: `the high limit must be a whole number from 0 to ${UNBOUNDED_HIGH_LIMIT}` };
  return { ok: true, entries, limit };
}

function wholeIn(text: string, lo: number, hi: number): number | null {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(n) && n >= lo && n <= hi ? n : null;
}

/**
 * A link-lab scenario that runs the designed table: one class per designed class, named
 * alike, each offered its wanted share of the link (scaled so the total is at most
 * {@link SIMULATION_LOAD}) as Poisson arrivals of fixed packets of its MTU.
 */
export function simulationScenario(
  form: DesignForm,
  table: readonly DesignEntry[],
): { ok: true; scenario: Scenario; leftOut: string[] } | { ok: false; reason: string } {
  // Only the classes the table serves: a class without an entry would never be served (the
  // engine refuses it), as with a partial or imported table.
  const high = hasFabric(form.technology) ? (form.fabric?.high ?? []) : [];
  const classes = form.classes.filter((c) => table.some((e) => e.class === c.name) || high.some((h) => h.class === c.name));
  const leftOut = form.classes.filter((c) => !classes.includes(c)).map((c) => c.name);
  if (classes.length === 0) return { ok: false, reason: 'no entry of the table names a class of the requirements' };
  const names = classes.map((c) => c.name);
  const scheduler = schedulerFor(form.technology, table, names, hasFabric(form.technology) ? form.fabric : undefined);
  if (!scheduler.ok) return scheduler;
  const rate = num(form.linkRate);
  if (!(rate > 0)) return { ok: false, reason: 'the link rate must be a number above 0' };
  const shares = classes.map((c) => num(c.share));
  const mtus = classes.map((c) => num(c.mtu));
  const bad = classes.findIndex((_, i) => !(shares[i]! > 0) || !(mtus[i]! >= 1));
  if (bad >= 0) return { ok: false, reason: `class ${classes[bad]?.name ?? bad} needs a share above 0 and an MTU` };
  const total = shares.reduce((a, b) => a + b, 0);
  const scale = total > SIMULATION_LOAD ? SIMULATION_LOAD / total : 1;
  const largest = Math.max(...mtus, num(form.gmtu) || 0);
  const scenario: Scenario = {
    version: 1,
    name: `Designed ${TECHNOLOGIES.find((t) => t.value === form.technology)?.label.split(' (')[0] ?? form.technology} table (${table.length} entries)`,
    description:
      `A table from the designer. Each class is offered its wanted share of the link` +
      (scale < 1 ? ` scaled by ${round(scale, 4)} (total load ${SIMULATION_LOAD})` : '') +
      ', as Poisson arrivals of packets of its MTU.' +
      (leftOut.length > 0 ? ` Classes without an entry in the table are left out: ${leftOut.join(', ')}.` : '') +
      highNote(scheduler.scheduler),
    seed: 1,
    duration_us: SIMULATION_DURATION_US,
    warmup_us: SIMULATION_WARMUP_US,
    model: {
      kind: 'link_lab',
      link: { rate_gbps: rate },
      downstream: { buffer_bytes: Math.max(16_384, 4 * Math.ceil(largest / CREDIT_BYTES) * CREDIT_BYTES), drain_rate_gbps: rate },
      classes: classes.map((c, i) => ({
        name: c.name,
        traffic: {
          load: round(shares[i]! * scale, 9),
          arrivals: { kind: 'poisson' },
          size: { kind: 'fixed', bytes: mtus[i]! },
        },
      })),
      scheduler: scheduler.scheduler,
    },
  };
  return { ok: true, scenario, leftOut };
}

/** What the description says of a high-priority table, if the scheduler has one. */
function highNote(scheduler: SchedulerConfig): string {
  if (scheduler.kind !== 'iba' || scheduler.high.length === 0) return '';
  const limit = scheduler.high_limit >= UNBOUNDED_HIGH_LIMIT ? 'unbounded' : `${scheduler.high_limit} × 4 KiB`;
  return ` The fabric settings' high-priority table (${scheduler.high.length} entries, high limit ${limit}) is served before the designed table.`;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
