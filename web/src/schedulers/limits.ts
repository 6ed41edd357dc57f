// Engine limits the scheduler editors use, read from `generated/limits.ts`, which
// `qoslab gen-types` writes from the engine's own constants (`engine/core/src/limits.rs`):
// the web keeps no copy. They size fields, menus and starting values; the engine's
// validation decides, and its messages are shown next to the fields.
import { ENGINE_LIMITS } from '../generated/limits';

/** Table sizes of an AS basic table. */
export const AS_TABLE_SIZES: readonly number[] = ENGINE_LIMITS.as_table_sizes;
/** Largest IBA entry weight. */
export const IBA_MAX = ENGINE_LIMITS.iba_max_weight;
/** The IBA high limit meaning "unbounded" (also its largest value). */
export const IBA_HIGH_LIMIT_UNBOUNDED = ENGINE_LIMITS.iba_high_limit_unbounded;
/** Most entries of an IBA table. */
export const IBA_MAX_ENTRIES = ENGINE_LIMITS.iba_max_entries;
/** Most entries of a DTable. */
export const MAX_TABLE_ENTRIES = ENGINE_LIMITS.max_table_entries;
/** Largest DTable entry weight in credits. */
export const MAX_DTABLE_WEIGHT = ENGINE_LIMITS.max_dtable_weight;
/** Largest DRR quantum in bytes. */
export const MAX_QUANTUM_BYTES = ENGINE_LIMITS.max_quantum_bytes;
/** Largest EDF deadline in ns. */
export const MAX_DEADLINE_NS = ENGINE_LIMITS.max_deadline_ns;
/** Largest strict priority. */
export const MAX_PRIORITY = ENGINE_LIMITS.max_priority;
/** Bytes per credit / IBA weight unit. */
export const UNIT_BYTES = ENGINE_LIMITS.credit_bytes;
