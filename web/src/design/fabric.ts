// The fabric-manager settings of the designer (InfiniBand: OpenSM prefix, high table, high
// limit, SL2VL; Omni-Path: the high-priority classes), as typed, and their conversion to the
// engine's `FabricOptions` (`docs/opensm.md`, "Exporting a design").
import type { FabricOptions, Prefix, Technology } from '../generated';

/** One high-table entry as typed. */
export interface HighForm {
  class: string;
  weight: string;
}

/** The settings as typed. `sl2vl` null = the engine's default (unused SLs to the most tolerant class). */
export interface FabricForm {
  prefix: Prefix;
  high: HighForm[];
  /** '' = 0. */
  highLimit: string;
  sl2vl: string[] | null;
}

/** The OpenSM port types, with their names in the UI. */
export const PREFIXES: readonly { value: Prefix; label: string }[] = [
  { value: 'qos_', label: 'qos_ (every port type)' },
  { value: 'qos_ca_', label: 'qos_ca_ (channel adapters)' },
  { value: 'qos_swe_', label: 'qos_swe_ (switch external ports)' },
  { value: 'qos_sw0_', label: 'qos_sw0_ (switch port 0)' },
  { value: 'qos_rtr_', label: 'qos_rtr_ (routers)' },
];

/** Settings with nothing chosen. */
export function defaultFabric(): FabricForm {
  return { prefix: 'qos_', high: [], highLimit: '', sl2vl: null };
}

/** Whether a technology has fabric settings. */
export function hasFabric(technology: Technology): boolean {
  return technology === 'infiniband' || technology === 'omnipath';
}

function whole(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * The engine's `FabricOptions` for the form (undefined for technologies without them).
 * Unreadable numbers go as null, so the engine names the field.
 */
export function toFabricOptions(technology: Technology, f: FabricForm | undefined): FabricOptions | undefined {
  if (!f || !hasFabric(technology)) return undefined;
  const high = f.high.map((h) => ({ class: h.class, weight: whole(h.weight) as number }));
  if (technology === 'omnipath') return { high };
  const out: FabricOptions = { prefix: f.prefix, high, high_limit: whole(f.highLimit) ?? 0 };
  if (f.sl2vl !== null) out.sl2vl = f.sl2vl.map((v) => whole(v) as number);
  return out;
}

/** The form for engine settings (an import), keeping what the engine left unset as defaults. */
export function fabricFromOptions(o: FabricOptions | null | undefined): FabricForm {
  return {
    prefix: o?.prefix ?? 'qos_',
    high: (o?.high ?? []).map((h) => ({ class: h.class, weight: String(h.weight) })),
    highLimit: o?.high_limit === undefined || o.high_limit === null ? '' : String(o.high_limit),
    sl2vl: o?.sl2vl ? o.sl2vl.map(String) : null,
  };
}

/** Reads the fabric part of a saved form; lines say what is wrong. */
export function parseFabric(raw: unknown, lines: string[]): FabricForm | undefined {
  if (raw === undefined) return undefined;
  const f = raw as Partial<FabricForm> | null;
  const ok =
    typeof f === 'object' &&
    f !== null &&
    PREFIXES.some((p) => p.value === f.prefix) &&
    Array.isArray(f.high) &&
    f.high.every((h) => typeof h?.class === 'string' && typeof h?.weight === 'string') &&
    typeof f.highLimit === 'string' &&
    (f.sl2vl === null || (Array.isArray(f.sl2vl) && f.sl2vl.every((v) => typeof v === 'string')));
  if (!ok) {
    lines.push('form.fabric: must be {prefix, high: [{class, weight}], highLimit, sl2vl: [16 texts] or null}');
    return undefined;
  }
  return f as FabricForm;
}
