//! How a design maps onto Omni-Path (`shared/spec/20-table-design.md`, "Omni-Path
//! (correction, 2026-11)"; `docs/table-design.md`). No Omni-Path hardware table holds a
//! DTable as it is, and the InfiniBand layout (DTable entries in the 64 high-priority VLArb
//! entries, 16 low-priority entries as deficit counters, one as the accumulated-weight
//! register) does not carry over. The published Omni-Path adaptation adds a dedicated DTable
//! next to each output's SL arbiter, with its own deficit counter per SL and one
//! accumulated-weight register per output; it arbitrates by SL and then checks that SL's
//! VLs for a packet with credits. The mapping reports that layout with its register count
//! for the requirements' switch ([`super::omnipath::dtable_layout`]), and keeps the limits
//! of the designer's Omni-Path technology (64 entries, 8-bit weights, 31 data SLs, MTUs up
//! to 10 KiB).

use super::bound::Arbiter;
use super::designed::TechnologyMapping;
use super::mapping_context::{Context, IB_TABLE_ENTRIES, OPA_MAX_MTU_BYTES, TableLimits, mapping};
use super::omnipath::{SLS, describe, dtable_layout};
use super::requirements::{CREDIT_BYTES, Technology};

/// The Omni-Path mapping of the design in `ctx`, on a switch of `ports` ports.
pub(super) fn omnipath(ctx: &Context, ports: u32) -> TechnologyMapping {
    let d = ctx.d;
    let tech = Technology::Omnipath;
    let n = d.table.len();
    let classes = d.classes.len();
    let problems = ctx.table_limit_problems(
        tech,
        &TableLimits {
            entries_rule: format!(
                "the engine models the adaptation's tables with at most {IB_TABLE_ENTRIES} entries, like the Omni-Path arbitration tables"
            ),
            classes_rule: format!(
                "Omni-Path has at most {} data SLs (SC 15 and VL 15 are management)",
                tech.max_classes()
            ),
            weight_field: "the adaptation's weight field",
            packets: "Omni-Path",
            max_mtu_bytes: OPA_MAX_MTU_BYTES,
        },
    );
    let max_deficit = ctx.mtus.iter().copied().max().unwrap_or(1) - 1;
    let acc = ctx.max_accumulated();
    let layout = dtable_layout(
        ports,
        SLS,
        u32::try_from(n).unwrap_or(u32::MAX),
        classes,
        max_deficit,
        acc,
    );
    let details = vec![
        format!(
            "No Omni-Path hardware table holds a DTable as it is, and the InfiniBand layout (entries in the {IB_TABLE_ENTRIES} high-priority VLArb entries, 16 low-priority entries as deficit counters, one as the accumulated-weight register) does not apply to Omni-Path. The published Omni-Path adaptation adds a dedicated DTable next to each output's SL arbiter: it picks an SL by the table (class k is SL k) and then checks that SL's VLs for a packet with credits ({}).",
            describe(classes)
        ),
        format!(
            "Registers on a {ports}-port switch with {SLS} SLs: per output a table of {n} entries (SL, weight in {CREDIT_BYTES}-byte credits), {SLS} deficit counters (one per SL) and one accumulated-weight register; in all {} tables, {} deficit counters and {} accumulators. This design uses {classes} of the {SLS} SLs of each output; its deficits reach {max_deficit} credits and the register {acc}.",
            layout.tables, layout.deficit_counters, layout.accumulators
        ),
        format!(
            "Deficits carry over as in a DTable, so the shares are the weight shares. Worst-case waits: {}.",
            ctx.waits(Arbiter::DTable)
        ),
        "Without the adaptation the Omni-Path FM programs its own VL arbitration from whole-percent bandwidth shares (the opafm export): the shares survive, rounded; entry placement (the distances), per-entry weights and deficits do not.".to_string(),
    ];
    TechnologyMapping {
        omnipath_layout: Some(layout),
        ..mapping(
            tech,
            if problems.is_empty() {
                format!(
                    "Fits the Omni-Path DTable adaptation: a dedicated table next to each output's SL arbiter, with a deficit counter per SL and one accumulator per output ({} deficit counters and {} accumulators on a {ports}-port switch).",
                    u64::from(ports) * u64::from(SLS),
                    ports
                )
            } else {
                "Does not fit the Omni-Path DTable adaptation as it stands.".to_string()
            },
            details,
            problems,
        )
    }
}
