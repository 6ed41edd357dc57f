// Engine limits the scheduler editors use. These are COPIES of the engine's rules
// (`engine/core/src/scenario/rules.rs`, `scheduler_rules.rs`, `schedulers/iba.rs`): they
// only size fields, menus and starting values; the engine's validation decides, and its
// messages are shown next to the fields. Kept in this one file until the engine exposes
// them (issue 20: "engine limits reach the web through the generated types or wasm calls").

/** Table sizes of an AS basic table (scheduler_rules.rs). */
export const AS_TABLE_SIZES: readonly number[] = [32, 64, 128, 256, 512, 1024];
/** Largest IBA entry weight and high limit (scheduler_rules.rs; `UNBOUNDED` in iba.rs). */
export const IBA_MAX = 255;
/** Most entries of an IBA table (scheduler_rules.rs). */
export const IBA_MAX_ENTRIES = 64;
/** Most entries of a DTable (`MAX_TABLE_ENTRIES`, rules.rs). */
export const MAX_TABLE_ENTRIES = 4096;
/** Largest DTable entry weight in credits (scheduler_rules.rs). */
export const MAX_DTABLE_WEIGHT = 65_535;
/** Largest DRR quantum in bytes (`MAX_QUANTUM_BYTES`, rules.rs). */
export const MAX_QUANTUM_BYTES = 16_777_216;
/** Largest EDF deadline in ns (`MAX_DEADLINE_NS`, rules.rs). */
export const MAX_DEADLINE_NS = 1e12;
/** Largest strict priority (scheduler_rules.rs). */
export const MAX_PRIORITY = 255;
/** Bytes per credit / IBA weight unit (`CREDIT_BYTES`, flow_control.rs). */
export const UNIT_BYTES = 64;
